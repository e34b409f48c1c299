import supertest from 'supertest';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const sample = (text: string, name: string, labels = '') => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels}`) && !l.startsWith('#'));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

it('exposes Prometheus metrics at /metrics of the metrics port: HTTP durations by route and status, appended events, projection lag, chat figures', async () => {
  await stack.agent().get('/api/health').expect(200);
  await stack.agent().get('/api/does-not-exist').expect(404);
  await stack.store.append(
    'metrics-1',
    [
      { type: 'MetricsProbed', data: {} },
      { type: 'MetricsProbed', data: {} },
    ],
    { expectedRevision: 'no_stream' },
  );
  await stack.store.append('chatSession-m1', [{ type: 'ChatSessionStarted', data: {} }], {
    expectedRevision: 'no_stream',
  });

  expect(stack.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // loopback by default
  const res = await supertest(stack.metricsUrl!).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  const text = res.text;
  expect(
    sample(text, 'lively_http_request_duration_seconds_count', '{method="GET",route="/api/health",status="200"}'),
  ).toBe(1);
  expect(
    sample(text, 'lively_http_request_duration_seconds_count', '{method="GET",route="unmatched",status="404"}'),
  ).toBe(1);
  expect(sample(text, 'lively_events_appended_total', '{type="MetricsProbed"}')).toBe(2);
  expect(sample(text, 'lively_chat_matches_total')).toBe(1);
  expect(text).toMatch(/^lively_projection_lag_events\{projection="[^"]+"\} -?\d+$/m);
  expect(sample(text, 'lively_chat_open_sockets')).toBe(stack.realtime.openSockets());
  expect(stack.deps.ports.realtime).toBe(stack.realtime);
  expect(text).toContain('lively_chat_queue_waiting');
  expect(text).toContain('lively_process_cpu_user_seconds_total');
});

it('does not serve /metrics on the public port without a token configured (404, not the web shell)', async () => {
  const res = await supertest(stack.url).get('/metrics').expect(404);
  expect(res.body).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
  await supertest(stack.url).get('/metrics').set('Authorization', 'Bearer anything').expect(404);
  // The metrics port serves nothing else.
  await supertest(stack.metricsUrl!).get('/api/health').expect(404);
});

it('serves /metrics on the public port only with the bearer token when METRICS_TOKEN is set', async () => {
  const token = 'scrape-secret-0123456789';
  const guarded = await startTestStack({ metricsToken: token });
  try {
    const none = await supertest(guarded.url).get('/metrics').expect(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.text).not.toContain('lively_');
    await supertest(guarded.url).get('/metrics').set('Authorization', 'Bearer wrong-secret-0123456789').expect(401);
    await supertest(guarded.url).get('/metrics').set('Authorization', token).expect(401);
    const scraped = await supertest(guarded.url).get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
    expect(scraped.text).toContain('lively_http_request_duration_seconds');
    await supertest(guarded.metricsUrl!).get('/metrics').expect(200);
  } finally {
    await guarded.close();
  }
});
