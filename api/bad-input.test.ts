import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import supertest from 'supertest';
import { startTestStack, type TestStack } from '../ops/testing/harness';
import { createApp } from './app';

/**
 * No request, however malformed, gets a 500. Every route registered on the app (found by
 * walking the express router, so routes added later are covered too) receives malformed JSON,
 * wrong types, huge bodies, unknown fields and junk path parameters, signed in and not.
 */

interface Route {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: unknown;
}

function listRoutes(app: Express): Route[] {
  const routes: Route[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of ([] as unknown[]).concat(layer.route.path)) {
          if (typeof path !== 'string') continue; // regular-expression routes: the web client's shell
          for (const method of Object.keys(layer.route.methods)) if (method !== '_all') routes.push({ method, path: prefix + path });
        }
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  const seen = new Set<string>();
  return routes.filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
}

/** A concrete URL for a route pattern, each parameter replaced by `value`. */
function fill(path: string, value: string): string {
  return path
    .replace(/[{}]/g, '')
    .replace(/:(\w+)/g, () => encodeURIComponent(value))
    .replace(/\*(\w+)/g, () => encodeURIComponent(value));
}

const JUNK_IDS = ['-1', "1' OR '1'='1", 'x'.repeat(3000), 'nul\u0000', '9'.repeat(40), randomUUID()];

/** Field names of the SPEC's payloads, filled with the wrong kinds of values. */
const FIELDS = [
  'email', 'password', 'confirmPassword', 'firstName', 'lastName', 'paymentToken', 'bio', 'coverImageUrl', 'title', 'content',
  'mediaUrl', 'isPublic', 'creatorId', 'tierId', 'receiverId', 'type', 'accountHolderName', 'bankAccountLast4', 'routingNumber',
  'paymentAccountId', 'amount', 'cryptoType', 'walletAddress', 'cryptoAmount', 'message', 'level', 'name', 'price', 'features',
  'userId', 'id', 'token', 'status', 'page', 'limit', 'age', 'interests', 'mode', 'filters', 'conversionId', 'months',
];
const WRONG_VALUES: unknown[] = [123, -1e308, true, null, { $gt: '' }, ['a', 1], 'x'.repeat(5000), '1e309', '\u0000💥'];

function wrongBodies(): unknown[] {
  const bodies: unknown[] = [[1, 2, 3], 'text', 42, {}];
  // Each field meets every wrong value across these bodies (value i + j for field j).
  WRONG_VALUES.forEach((_, i) => bodies.push(Object.fromEntries(FIELDS.map((field, j) => [field, WRONG_VALUES[(i + j) % WRONG_VALUES.length]]))));
  bodies.push({ unknownField: 1, nested: { deeper: [1, { x: null }] }, constructor: { prototype: { polluted: true } } });
  return bodies;
}

const RAW_BODIES: Array<{ type: string; body: string }> = [
  { type: 'application/json', body: '{"email":' },
  { type: 'application/json', body: '{"__proto__":{"polluted":true},"amount":"1"}' },
  { type: 'application/json', body: 'null' },
  { type: 'application/json', body: '\u0000\u0001' },
  { type: 'text/plain', body: 'just text' },
  { type: 'application/x-www-form-urlencoded', body: 'a=1&a=2&b[c]=3' },
  { type: 'application/json', body: JSON.stringify({ blob: 'x'.repeat(2_000_000) }) },
];

let stack: TestStack;
let routes: Route[];
let signedIn: supertest.Agent;

beforeAll(async () => {
  stack = await startTestStack();
  routes = listRoutes(createApp(stack.deps).app);
  signedIn = stack.agent();
  // A real member when the accounts routes exist; otherwise a session for an unknown user.
  const email = `bad-input-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await signedIn
    .post('/api/auth/register')
    .send({ firstName: 'Bad', lastName: 'Input', email, password: 'Passw0rdOK', confirmPassword: 'Passw0rdOK', paymentToken: 'dev_tok_badinput' });
  if (registered.status >= 300) {
    const login = await signedIn.post('/api/auth/login').send({ email, password: 'Passw0rdOK' });
    if (login.status >= 300) throw new Error(`cannot sign in for the bad-input test: register ${registered.status}, login ${login.status}`);
  }
}, 60_000);
afterAll(() => stack.close());

type Attempt = { label: string; send: (agent: supertest.Agent) => supertest.Test };

function attemptsFor(route: Route): Attempt[] {
  const attempts: Attempt[] = [];
  const call = (agent: supertest.Agent, url: string) => (agent as unknown as Record<string, (url: string) => supertest.Test>)[route.method](url);
  const ids = route.path.includes(':') || route.path.includes('*') ? JUNK_IDS : [''];
  for (const id of ids) {
    const url = fill(route.path, id);
    attempts.push({ label: `id ${id.slice(0, 20)}`, send: (agent) => call(agent, `${url}?page=-1&limit=abc&sort[$gt]=1&from=%00&to=9999-99-99`) });
  }
  if (route.method !== 'get' && route.method !== 'head') {
    const url = fill(route.path, randomUUID());
    for (const body of wrongBodies()) attempts.push({ label: `body ${JSON.stringify(body).slice(0, 60)}`, send: (agent) => call(agent, url).set('Content-Type', 'application/json').send(JSON.stringify(body)) });
    for (const raw of RAW_BODIES) attempts.push({ label: `raw ${raw.type} ${raw.body.slice(0, 30)}`, send: (agent) => call(agent, url).set('Content-Type', raw.type).send(raw.body) });
  }
  return attempts;
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

it('finds the routes of every module (at least the foundations)', () => {
  const names = routes.map((r) => `${r.method.toUpperCase()} ${r.path}`);
  expect(names).toEqual(expect.arrayContaining(['GET /api/health', 'POST /api/logs/client']));
});

it.each([
  ['signed out', () => stack.agent()],
  ['signed in', () => signedIn],
])('never answers bad input with a 500, and explains every refusal in JSON (%s)', async (_who, agentOf) => {
  const agent = agentOf();
  const failures: string[] = [];
  const work = routes.flatMap((route) => attemptsFor(route).map((attempt) => ({ route, attempt })));
  await inBatches(work, 16, async ({ route, attempt }) => {
    const res = await attempt.send(agent);
    const where = `${route.method.toUpperCase()} ${route.path} [${attempt.label}] -> ${res.status}`;
    if (res.status >= 500) failures.push(`${where} ${JSON.stringify(res.body).slice(0, 200)}`);
    else if (res.status >= 400 && (!/json/.test(String(res.headers['content-type'])) || typeof res.body?.error !== 'string')) failures.push(`${where}: error body is not JSON with an error text`);
  });
  expect(failures).toEqual([]);
}, 60_000);
