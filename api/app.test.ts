import { Writable } from 'node:stream';
import supertest from 'supertest';
import { createLogger, redact } from './logger';
import { startTestStack, type TestStack } from '../ops/testing/harness';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('API foundations', () => {
  it('reports health with the database, the event store and projection lag', async () => {
    const res = await stack.agent().get('/api/health').expect(200);
    expect(res.body).toMatchObject({
      status: 'healthy',
      database: 'ok',
      eventStore: { kind: 'postgres', status: 'ok' },
    });
    expect(Array.isArray(res.body.projections)).toBe(true);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts a fresh X-Request-Id on every response, errors included', async () => {
    const a = await stack.agent().get('/api/nope').expect(404);
    const b = await stack.agent().get('/api/nope').expect(404);
    expect(a.body).toEqual({ error: 'No such endpoint: GET /api/nope', code: 'NOT_FOUND' });
    expect(a.headers['x-request-id']).not.toEqual(b.headers['x-request-id']);
  });

  it('refuses mutating calls from another origin or with none', async () => {
    const entry = { message: 'hello' };
    await stack.agent().post('/api/logs/client').set('Origin', 'http://evil.example').send(entry).expect(403);
    const res = await supertest(stack.url).post('/api/logs/client').send(entry).expect(403);
    expect(res.body.code).toBe('BAD_ORIGIN');
    await stack.agent().post('/api/logs/client').send(entry).expect(204);
  });

  it('answers malformed, oversized and mistyped bodies with 4xx, never 500', async () => {
    const malformed = await stack
      .agent()
      .post('/api/logs/client')
      .set('Content-Type', 'application/json')
      .send('{"message":')
      .expect(400);
    expect(malformed.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'The request body is not valid JSON' });
    await stack
      .agent()
      .post('/api/logs/client')
      .send({ message: 'x'.repeat(200_000) })
      .expect(413);
    const wrongType = await stack.agent().post('/api/logs/client').send({ message: 42, level: 'loud' }).expect(400);
    expect(wrongType.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { message: expect.any(String), level: expect.any(String) },
    });
    await stack
      .agent()
      .post('/api/logs/client')
      .send({ message: 'ok', unknownField: { deep: true } })
      .expect(204);
    await stack.agent().post('/api/logs/client').set('Content-Type', 'text/plain').send('just text').expect(400);
  });
});

describe('log redaction', () => {
  it('replaces fields named like secrets at any depth', () => {
    expect(
      redact({
        password: 'p',
        user: { cardNumber: '4242', name: 'n', nested: [{ apiToken: 't', cvv: '1' }] },
        Authorization: 'Bearer x',
        clientSecret: 's',
      }),
    ).toEqual({
      password: '[REDACTED]',
      user: { cardNumber: '[REDACTED]', name: 'n', nested: [{ apiToken: '[REDACTED]', cvv: '[REDACTED]' }] },
      Authorization: '[REDACTED]',
      clientSecret: '[REDACTED]',
    });
  });

  it('redacts what the logger writes', () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    createLogger({ destination }).info({ body: { password: 'hunter2', email: 'a@b.c' } }, 'signup');
    expect(lines[0]).toContain('[REDACTED]');
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[0]).toContain('a@b.c');
  });
});
