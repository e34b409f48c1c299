import { Writable } from 'node:stream';
import { createLogger } from '../logger';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { CLIENT_LOG_CAPS } from './client-logs';

jest.setTimeout(60_000);

const logLines: string[] = [];
const destination = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    logger: createLogger({ level: 'trace', destination }),
    trustProxy: true, // X-Forwarded-For gives each test its own IP
    ports: {
      clientLogRateLimits: { perClient: { limit: 5, windowMs: 60_000 }, perIp: { limit: 8, windowMs: 60_000 } },
    },
  });
});
afterAll(() => stack.close());

let counter = 0;
const newIp = () => `10.77.${++counter % 250}.${Math.floor(Math.random() * 250)}`;
const clientId = () => `client_${Date.now().toString(36)}_${++counter}`.padEnd(21, 'x');
const post = (entry: unknown, ip: string, client: string | null) => {
  const request = stack.agent().post('/api/logs/client').set('X-Forwarded-For', ip);
  return (client ? request.set('X-Client-Id', client) : request).send(entry as object);
};
const clientLines = (marker: string) =>
  logLines
    .filter((line) => line.includes('"source":"client"') && line.includes(marker))
    .map((line) => JSON.parse(line));

describe('POST /api/logs/client', () => {
  it('redacts card numbers, CVV-like and password-like text and secret field names before logging', async () => {
    const marker = `m${Date.now()}`;
    const entry = {
      level: 'error',
      message: `${marker} card 4111111111111111 cvv 737 password=Hunter2Secret!`,
      context: {
        note: 'paid with 4111 1111 1111 1111, pwd: Hunter2Secret!',
        cardNumber: '4111111111111111',
        form: { password: 'Hunter2Secret!', cvv: '737' },
        step: 3,
      },
      time: '2025-01-01T00:00:00.000Z',
    };
    await post(entry, newIp(), clientId()).expect(204);

    const [line] = clientLines(marker);
    expect(line).toMatchObject({
      level: 50,
      source: 'client',
      context: { cardNumber: '[REDACTED]', form: { password: '[REDACTED]', cvv: '[REDACTED]' }, step: 3 },
    });
    expect(line.msg).toBe(`${marker} card [REDACTED] cvv [REDACTED] password=[REDACTED]`);
    const log = logLines.join('');
    expect(log).not.toContain('4111111111111111');
    expect(log).not.toContain('4111 1111 1111 1111');
    expect(log).not.toContain('Hunter2Secret');
    // 737 on its own (not inside a request id or a timestamp's milliseconds).
    expect(log).not.toMatch(/(?<![\w.:/-])737(?![\w-])/);
  });

  it('caps the size of what one entry writes to the log', async () => {
    const marker = `big${Date.now()}`;
    const deep = { a: { b: { c: { d: { e: { f: 'deep' } } } } } };
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(2000)]));
    await post({ message: `${marker} ${'x'.repeat(3900)}`, context: { deep } }, newIp(), clientId()).expect(204);
    await post({ message: `${marker} wide`, context: many }, newIp(), clientId()).expect(204);
    const [long, wide] = clientLines(marker);
    expect(long.msg.length).toBeLessThan(CLIENT_LOG_CAPS.message + 50);
    expect(JSON.stringify(long.context)).toContain('[TOO DEEP]');
    expect(JSON.stringify(long.context)).not.toContain('"f"');
    expect(wide.context).toEqual({ truncated: true, characters: expect.any(Number) });
    for (const line of clientLines(marker))
      expect(JSON.stringify(line).length).toBeLessThan(CLIENT_LOG_CAPS.message + CLIENT_LOG_CAPS.context + 500);
  });

  it('limits entries per client id (across IPs) and per IP (across client ids) with 429', async () => {
    const client = clientId();
    for (let i = 0; i < 5; i++) await post({ message: `one client ${i}` }, newIp(), client).expect(204);
    const limited = await post({ message: 'one client, too many' }, newIp(), client).expect(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await post({ message: 'another client is fine' }, newIp(), clientId()).expect(204);

    const ip = newIp();
    for (let i = 0; i < 8; i++) await post({ message: `one ip ${i}` }, ip, i % 2 ? clientId() : null).expect(204);
    await post({ message: 'one ip, too many' }, ip, clientId()).expect(429);
    await post({ message: 'another ip is fine' }, newIp(), null).expect(204);
  });
});
