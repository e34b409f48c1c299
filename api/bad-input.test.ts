import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import supertest from 'supertest';
import { grantStaffRole } from '../domain/payouts/staff-role';
import { eventually } from '../ops/testing/eventually';
import { startTestStack, type TestStack } from '../ops/testing/harness';
import { verifyIdentity } from '../ops/testing/identity-verification';
import type { AuthRateLimits } from './routes/accounts';
import { createApp } from './app';

/**
 * No request, however malformed, gets a 500, and every refusal is JSON `{ error, code }`.
 * Every route registered on the app (found by walking the express router, so routes added later
 * are covered too) is tried signed out, as a member, and as a creator who is also finance staff
 * (so the validation behind each role gate is reached). Each body attack spoils one field of a
 * body the route otherwise accepts: NUL, lone surrogates, 1 MB strings, wrong types, `__proto__`
 * keys; each path parameter gets junk ids and broken percent-escapes; malformed JSON and
 * non-object bodies go everywhere.
 */

jest.setTimeout(600_000);

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
          for (const method of Object.keys(layer.route.methods))
            if (method !== '_all') routes.push({ method, path: prefix + path });
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

const keyOf = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;
const paramsOf = (path: string) => [...path.matchAll(/[:*](\w+)/g)].map((m) => m[1]);
const takesBody = (route: Route) => route.method !== 'get' && route.method !== 'head';

/** What the sweep needs to reach each route's validation: the people and records it refers to. */
interface Fixtures {
  memberId: string;
  staffId: string;
  postId: string;
}

/** A body each route accepts (or refuses only after validating it): the attacks spoil one field at a time. */
const SAMPLES: Record<string, (f: Fixtures) => Record<string, unknown>> = {
  // Media uploads take files, not JSON: every JSON body is refused before (or as) the upload is read.
  'POST /api/media': () => ({}),
  'DELETE /api/media/:id': () => ({}),
  'POST /api/media/uploads/': () => ({}),
  'PATCH /api/media/uploads/:id': () => ({}),
  'DELETE /api/media/uploads/:id': () => ({}),
  // Identity verification takes a multipart form (two photos): a JSON body is refused as it is read.
  'POST /api/creators/verification': () => ({}),
  'POST /api/admin/verifications/:id/decide': () => ({ decision: 'rejected', reason: 'Sweep' }),
  'POST /api/logs/client': () => ({
    level: 'info',
    message: 'Hello from the sweep',
    context: { page: '/sweep' },
    time: '2024-01-01T00:00:00Z',
  }),
  'POST /api/auth/register': () => ({
    firstName: 'Sweep',
    lastName: 'Member',
    email: `sweep-${randomUUID()}@example.com`,
    password: 'Passw0rdOK',
    confirmPassword: 'Passw0rdOK',
    paymentToken: 'dev_tok_sweep',
  }),
  'POST /api/auth/login': () => ({ email: 'nobody-sweep@example.com', password: 'Wrong-Passw0rd' }),
  'POST /api/auth/login/2fa': () => ({ code: '000000' }),
  'POST /api/auth/2fa/setup': () => ({}),
  'POST /api/auth/2fa/enable': () => ({ code: '000000' }),
  'POST /api/auth/2fa/disable': () => ({ code: '000000' }),
  // A wrong password: the sweep's people are never deleted.
  'POST /api/account/delete': () => ({ password: 'Not-the-Passw0rd' }),
  'POST /api/auth/reset-password-request': () => ({ email: 'nobody-sweep@example.com' }),
  'POST /api/auth/reset-password': () => ({
    token: 'not-a-real-token',
    password: 'Passw0rdOK',
    confirmPassword: 'Passw0rdOK',
  }),
  'POST /api/subscribe': () => ({}),
  'POST /api/subscribe/crypto': () => ({ months: 6 }),
  'POST /api/cancel-subscription': () => ({}),
  'POST /api/verify-age': () => ({ paymentToken: 'dev_tok_sweep' }),
  'POST /api/profile': () => ({
    displayName: 'Sweepy',
    age: 30,
    location: 'Lisbon',
    genderIdentity: 'woman',
    sexualOrientation: 'straight',
    relationshipType: ['dating'],
    bio: 'Just sweeping',
    interests: ['Music'],
  }),
  'POST /api/preferences': () => ({
    sexualActivities: ['Massage'],
    kinks: [],
    rolePreferences: ['Switch'],
    experienceLevel: 'beginner',
    ageRangeMin: 18,
    ageRangeMax: 40,
    maxDistance: 25,
    lookingForGenders: ['man'],
    dealBreakers: [],
    mustHaves: ['Kind'],
    isPrivate: false,
  }),
  'POST /api/chat/blocks': (f) => ({ userId: f.memberId, reason: 'Sweep' }),
  'POST /api/blocks': (f) => ({ userId: f.memberId, reason: 'Sweep' }),
  'DELETE /api/blocks/:userId': () => ({}),
  'POST /api/reports': (f) => ({ targetType: 'user', targetId: f.memberId, reason: 'spam', details: 'Sweep' }),
  'GET /api/admin/reports': () => ({ status: 'open', targetType: 'user', limit: '10' }),
  'POST /api/admin/reports/:id/resolve': () => ({ action: 'suspend', days: 1, reason: 'Sweep' }),
  'POST /api/admin/users/:id/suspend': () => ({ days: 1, reason: 'Sweep' }),
  'POST /api/admin/users/:id/ban': () => ({ reason: 'Sweep' }),
  'POST /api/admin/users/:id/reinstate': () => ({ reason: 'Sweep' }),
  'PUT /api/me/avatar': () => ({ mediaId: randomUUID(), crop: { x: 0, y: 0, width: 10, height: 10 } }),
  'PUT /api/creators/me/cover': () => ({ mediaId: randomUUID() }),
  'POST /api/profile/images': () => ({ mediaId: randomUUID() }),
  'PUT /api/creators/me/watermark': () => ({ enabled: true }),
  'POST /api/creators/me/promotions': () => ({
    kind: 'trial',
    trialDays: 7,
    tierId: 'default-basic',
    maxRedemptions: 10,
    endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  }),
  'POST /api/creators/me/promotions/:id/end': () => ({}),
  'DELETE /api/profile/images/:id': () => ({}),
  'PUT /api/profile/images/order': () => ({ mediaIds: [randomUUID()] }),
  'POST /api/chat/sessions/:roomId/block': () => ({ reason: 'Sweep' }),
  'POST /api/chat/sessions/:roomId/report': () => ({ reason: 'Sweep report' }),
  'POST /api/crypto/wallets': () => ({ cryptoType: 'USDC', walletAddress: '0xAbC123sweep' }),
  'POST /api/crypto/calculate': () => ({ cryptoAmount: '20', cryptoType: 'USDC' }),
  'POST /api/crypto/convert': () => ({ cryptoAmount: '20', cryptoType: 'USDT', walletAddress: '0xAbC123sweep' }),
  'POST /api/payment-accounts': () => ({
    type: 'bank_account',
    accountHolderName: 'Sweep Holder',
    bankAccountLast4: '6789',
    routingNumber: '110000000',
  }),
  'POST /api/payouts': () => ({ paymentAccountId: randomUUID(), amount: '1.00' }),
  'POST /api/creators/register': () => ({ bio: 'Sweeping bio', coverImageUrl: 'https://example.com/cover.jpg' }),
  'POST /api/creators/:id/tiers': () => ({
    name: 'Sweep tier',
    description: 'A tier',
    price: '9.99',
    features: ['Posts', 'Messages'],
  }),
  'PUT /api/creators/:id/tiers/:tierId': () => ({
    name: 'Sweep tier',
    description: 'A tier',
    price: '9.99',
    features: ['Posts'],
  }),
  'POST /api/posts': () => ({
    title: 'Sweep post',
    content: 'Some content',
    mediaUrl: 'https://example.com/a.jpg',
    isPublic: true,
    scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  'POST /api/posts/:id/like': () => ({}),
  'POST /api/posts/:id/comments': () => ({ content: 'A comment' }),
  'PATCH /api/posts/:id': () => ({ title: 'Swept title', content: 'Edited by the sweep', isPublic: true }),
  'DELETE /api/posts/:id': () => ({}),
  'DELETE /api/posts/:id/comments/:commentId': () => ({}),
  'POST /api/subscriptions': (f) => ({ creatorId: f.staffId, tierId: 'default-basic' }),
  'POST /api/subscriptions/:id/cancel': () => ({}),
  'POST /api/subscriptions/:id/resume': () => ({}),
  'POST /api/subscriptions/:id/tier': () => ({ tierId: 'default-premium' }),
  'POST /api/subscriptions/:id/renewal-source': () => ({ source: 'balance' }),
  'POST /api/subscriptions/:id/refund': () => ({}),
  'POST /api/messages': (f) => ({ receiverId: f.memberId, content: 'Hello from the sweep' }),
  'POST /api/messages/:id/unlock': () => ({}),
  'POST /api/notifications/read': () => ({ ids: [randomUUID()] }),
  'POST /api/admin/payouts/:id/:action': () => ({ reason: 'Sweep' }),
  'POST /api/admin/payments/:id/refund': () => ({ amountCents: 100, reason: 'Sweep' }),
  'POST /api/system/rebuild': () => ({ projection: 'no-such-projection' }),
  'POST /api/tips': (f) => ({
    creatorId: f.staffId,
    amountCents: 500,
    message: 'Thanks from the sweep',
    source: 'balance',
  }),
  'POST /api/mass-messages': () => ({ segment: 'active', content: 'Hello from the sweep' }),
};

/** Query parameters a GET route reads: each is spoiled in turn. */
const QUERIES: Record<string, (f: Fixtures) => Record<string, string>> = {
  'GET /api/creators': () => ({ q: 'sweep', limit: '10' }),
  'GET /api/posts/feed': () => ({
    limit: '10',
    cursor: Buffer.from(`2024-01-01T00:00:00.000Z|${randomUUID()}`).toString('base64url'),
  }),
  'GET /api/admin/revenue': () => ({ from: '2024-01-01', to: '2024-01-31' }),
  'GET /api/admin/:resource': (f) => ({
    page: '0',
    pageSize: '10',
    sortField: 'createdAt',
    sortOrder: 'asc',
    status: 'pending',
    from: '2020-01-01',
    to: '2030-01-01',
    userId: f.staffId,
    minAmount: '0',
    maxAmount: '100',
    id: 'abc',
  }),
  'GET /api/admin/:resource/export.csv': (f) => ({
    from: '2020-01-01',
    to: '2030-01-01',
    userId: f.staffId,
    minAmount: '0',
  }),
  'GET /api/admin/streams/:streamName/events': () => ({ related: 'sweep' }),
  'GET /api/media': () => ({ kind: 'image', limit: '10' }),
  'GET /api/admin/verifications': () => ({ state: 'needs_review' }),
  'GET /api/system/events': () => ({
    type: 'UserRegistered',
    stream: 'user',
    from: '2020-01-01T00:00:00Z',
    to: '2030-01-01T00:00:00Z',
    before: '99999/1',
    limit: '10',
  }),
};

/** Values of path parameters that lead a request on to its validation. */
function goodParam(route: Route, name: string, f: Fixtures): string {
  // Deleting the sweep's post would turn the other post routes' checks into 404s: delete none.
  if (name === 'id' && route.method === 'delete' && route.path === '/api/posts/:id') return randomUUID();
  if (name === 'id' && route.path.startsWith('/api/posts/')) return f.postId;
  if (name === 'id' && route.path.startsWith('/api/creators/')) return f.staffId;
  const values: Record<string, string> = {
    id: randomUUID(), // a message or a payout nobody has: their bodies are validated first
    userId: f.staffId,
    creatorId: f.staffId,
    commentId: randomUUID(),
    tierId: 'default-basic',
    roomId: 'sweep-room',
    streamName: `user-${f.staffId}`,
    resource: 'payouts',
    action: 'fail',
    variant: 'preview.webp',
  };
  if (!(name in values)) throw new Error(`the sweep has no value for :${name} in ${keyOf(route)}: add one`);
  return values[name];
}

/** Junk for path parameters, already as they travel in a URL. */
const JUNK_PARAMS = [
  'abc',
  '-1',
  encodeURIComponent("1' OR '1'='1"),
  'x'.repeat(3000),
  '%00',
  'a%00b',
  '9'.repeat(40),
  '__proto__',
  'constructor',
  '%2e%2e%2f%2e%2e',
  randomUUID(),
];
/** A broken escape and an escaped lone surrogate (not UTF-8): both refused while the path is decoded. */
const BAD_ESCAPES = ['%E0%A4%A', '%ED%A0%80', '%'];

const WRONG_TYPES: unknown[] = [123, -1e308, true, null, {}, [], { $gt: '' }, ['a', 1], '1e309'];
const ONE_MB = 'x'.repeat(1024 * 1024);
const LONG = 'y'.repeat(60_000); // long, but under the 100 kB body limit: reaches the length checks
/** Raw bodies sent to every route that takes one, built once (building them per route cost seconds). */
const TWO_MB_JSON = JSON.stringify({ blob: 'x'.repeat(2_000_000) });
const DEEP_JSON = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;

type Check = (res: supertest.Response) => string | null;

interface Attack {
  label: string;
  /** A field of an otherwise good body with a value of the wrong type: only the route's contract refuses it. */
  wrongType?: boolean;
  url: string;
  body?: { type: string; raw: string };
  check?: Check;
}

const isValidationError: Check = (res) =>
  res.status === 400 && res.body?.code === 'VALIDATION_ERROR' ? null : 'expected a 400 VALIDATION_ERROR';
/** A 400 VALIDATION_ERROR naming the spoiled field (or a place inside it). */
const refusesField =
  (field: string): Check =>
  (res) => {
    const problem = isValidationError(res);
    if (problem) return problem;
    const fields = Object.keys(res.body.fields ?? {});
    return fields.some((name) => name === field || name.startsWith(`${field}.`))
      ? null
      : `expected fields.${field}, got ${fields.join(', ') || 'none'}`;
  };
const isTooLarge: Check = (res) => (res.status === 413 ? null : 'expected a 413');

function fill(route: Route, f: Fixtures, junk?: { name: string; value: string }): string {
  return route.path
    .replace(/[{}]/g, '')
    .replace(/[:*](\w+)/g, (_m, name: string) =>
      junk?.name === name ? junk.value : encodeURIComponent(goodParam(route, name, f)),
    );
}

const json = (value: unknown) => ({ type: 'application/json', raw: JSON.stringify(value) });
const withField = (sample: Record<string, unknown>, field: string, value: unknown) => ({ ...sample, [field]: value });

function paramAttacks(route: Route, f: Fixtures): Attack[] {
  return paramsOf(route.path).flatMap((name) => [
    ...JUNK_PARAMS.map((value) => ({ label: `:${name}=${value.slice(0, 20)}`, url: fill(route, f, { name, value }) })),
    ...BAD_ESCAPES.map((value) => ({
      label: `:${name}=${value}`,
      url: fill(route, f, { name, value }),
      check: isValidationError,
    })),
  ]);
}

function queryAttacks(route: Route, f: Fixtures): Attack[] {
  const url = fill(route, f);
  const attacks: Attack[] = [
    {
      label: 'junk query',
      url: `${url}?page=-1&limit=abc&limit=def&sort[$gt]=1&to=9999-99-99&cursor=zzz&q=${encodeURIComponent("' OR 1=1 --")}&__proto__[x]=1`,
    },
    // The API refuses it for every route (/metrics, outside it, reads no query).
    {
      label: 'NUL in a query',
      url: `${url}?from=%00&q=a%00b`,
      check: route.path.startsWith('/api/') ? refusesField('from') : undefined,
    },
  ];
  const sample = QUERIES[keyOf(route)]?.(f);
  if (!sample) return attacks;
  const query = (values: Record<string, string | string[]>) =>
    new URLSearchParams(
      Object.entries(values).flatMap(([k, v]) => ([] as string[]).concat(v).map((one) => [k, one])),
    ).toString();
  attacks.push({ label: 'query sample', url: `${url}?${query(sample)}` });
  for (const key of Object.keys(sample)) {
    attacks.push({
      label: `query ${key} NUL`,
      url: `${url}?${query({ ...sample, [key]: `${sample[key]}\u0000` })}`,
      check: refusesField(key),
    });
    attacks.push({ label: `query ${key} long`, url: `${url}?${query({ ...sample, [key]: 'z'.repeat(3000) })}` });
    attacks.push({ label: `query ${key} twice`, url: `${url}?${query({ ...sample, [key]: [sample[key], 'again'] })}` });
  }
  if (keyOf(route) === 'GET /api/posts/feed') {
    // A cursor is base64 of "time|id": what it decodes to is input too.
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const inner of [
      '2024-01-01|a\u0000b',
      '2024-01-01|\ud800',
      `2024-01-01|${'z'.repeat(200)}`,
      'not-a-date|x',
      '|',
    ])
      attacks.push({
        label: `feed cursor ${JSON.stringify(inner).slice(0, 30)}`,
        url: `${url}?cursor=${cursor(inner)}`,
      });
  }
  return attacks;
}

/** Each top-level field of the sample spoiled in turn (list fields: their first item). */
function fieldAttacks(url: string, sample: Record<string, unknown>): Attack[] {
  const attacks: Attack[] = [];
  for (const [field, good] of Object.entries(sample)) {
    const spoil = (bad: (text: string) => string) =>
      typeof good === 'string'
        ? bad(good)
        : Array.isArray(good) && typeof good[0] === 'string'
          ? [bad(good[0]), ...good.slice(1)]
          : bad('text');
    attacks.push({
      label: `${field} NUL`,
      url,
      body: json(
        withField(
          sample,
          field,
          spoil((t) => `${t}\u0000x`),
        ),
      ),
      check: refusesField(field),
    });
    attacks.push({
      label: `${field} lone high surrogate`,
      url,
      body: json(
        withField(
          sample,
          field,
          spoil((t) => `${t}\ud800`),
        ),
      ),
      check: refusesField(field),
    });
    attacks.push({
      label: `${field} lone low surrogate`,
      url,
      body: json(
        withField(
          sample,
          field,
          spoil((t) => `\udc00${t}`),
        ),
      ),
      check: refusesField(field),
    });
    attacks.push({ label: `${field} 1 MB`, url, body: json(withField(sample, field, ONE_MB)), check: isTooLarge });
    attacks.push({
      label: `${field} 60 kB`,
      url,
      body: json(
        withField(
          sample,
          field,
          spoil(() => LONG),
        ),
      ),
    });
    for (const wrong of WRONG_TYPES)
      attacks.push({
        label: `${field}=${JSON.stringify(wrong)}`,
        url,
        body: json(withField(sample, field, wrong)),
        wrongType: true,
      });
  }
  return attacks;
}

function bodyAttacks(route: Route, f: Fixtures): Attack[] {
  const url = fill(route, f);
  const sample = SAMPLES[keyOf(route)]?.(f) ?? {};
  const raw = (type: string, text: string, check?: Check): Attack => ({
    label: `raw ${type} ${JSON.stringify(text.slice(0, 24))}`,
    url,
    body: { type, raw: text },
    check,
  });
  const sampleJson = JSON.stringify(sample);
  const withKeys = (keys: string) => (sampleJson === '{}' ? `{${keys}}` : `${sampleJson.slice(0, -1)},${keys}}`);
  return [
    ...fieldAttacks(url, sample),
    raw('application/json', withKeys('"__proto__":{"polluted":true,"isAdmin":true}')),
    raw('application/json', withKeys('"constructor":{"prototype":{"polluted":true}}')),
    raw('application/json', withKeys('"x\\u0000":"key with a NUL"'), isValidationError),
    raw('application/json', '{"email":', isValidationError),
    raw('application/json', 'null', isValidationError),
    raw('application/json', '"a string"', isValidationError),
    raw('application/json', '42', isValidationError),
    raw('application/json', '[1,2,3]', isValidationError),
    raw('application/json', '\u0000\u0001', isValidationError),
    raw('application/json', TWO_MB_JSON, isTooLarge),
    raw('application/json', DEEP_JSON),
    raw('text/plain', 'just text'),
    raw('application/x-www-form-urlencoded', 'a=1&a=2&b[c]=3'),
  ];
}

function attacksFor(route: Route, f: Fixtures): Attack[] {
  return [...paramAttacks(route, f), ...queryAttacks(route, f), ...(takesBody(route) ? bodyAttacks(route, f) : [])];
}

/** Calls that change whose session a cookie is: always sent signed out, so the sweep keeps its people. */
const SESSION_CHANGING = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'GET /api/auth/logout',
  'POST /api/auth/reset-password',
]);

let stack: TestStack;
let routes: Route[];
let fixtures: Fixtures;
const cookies: Record<string, string | null> = { 'signed out': null };
const tally = { tried: 0, serverErrors: 0 };

async function signUp(name: string): Promise<{ id: string; cookie: string }> {
  const email = `sweep-${name}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await supertest(stack.url).post('/api/auth/register').set('Origin', stack.url).send({
    firstName: 'Sweep',
    lastName: name,
    email,
    password: 'Passw0rdOK',
    confirmPassword: 'Passw0rdOK',
    paymentToken: 'dev_tok_sweep',
  });
  if (res.status !== 201) throw new Error(`cannot sign up the ${name}: ${res.status} ${res.text}`);
  return { id: res.body.user.id, cookie: String(res.headers['set-cookie'][0]).split(';')[0] };
}

beforeAll(async () => {
  const unlimited = { limit: 1_000_000, windowMs: 60_000 };
  const authRateLimits: AuthRateLimits = {
    login: { perIp: unlimited, perAccountAndIp: unlimited },
    register: { perIp: unlimited, perAccount: unlimited },
    resetRequest: { perIp: unlimited, perAccount: unlimited },
  };
  stack = await startTestStack({
    ports: { authRateLimits, clientLogRateLimits: { perClient: unlimited, perIp: unlimited } },
  });
  routes = listRoutes(createApp(stack.deps).app);
  const [member, staff] = await Promise.all([signUp('member'), signUp('staff')]);
  const as = (cookie: string) => supertest.agent(stack.url).set('Origin', stack.url).set('Cookie', cookie);
  await as(staff.cookie).post('/api/creators/register').send({ bio: 'Sweeping creator' }).expect(201);
  await verifyIdentity(stack, as(staff.cookie), staff.id); // locked posts need it (issue 20)
  await grantStaffRole(stack.store, staff.id, { actorId: null, now: new Date() });
  await eventually(
    () => stack.db('users').where({ id: staff.id }).first('role'),
    (row) => row?.role === 'admin',
  );
  const post = await as(staff.cookie)
    .post('/api/posts')
    .send({ title: 'Sweep', content: 'Post for the sweep' })
    .expect(201);
  fixtures = { memberId: member.id, staffId: staff.id, postId: post.body.id };
  cookies.member = member.cookie;
  cookies['creator and finance staff'] = staff.cookie;
}, 120_000);
afterAll(async () => {
  console.log(
    `bad-input sweep: ${tally.tried} requests tried over ${routes?.length ?? 0} routes, 5xx = ${tally.serverErrors}`,
  );
  await stack?.close();
});

function send(route: Route, attack: Attack, cookie: string | null): supertest.Test {
  const request = (supertest(stack.url) as unknown as Record<string, (url: string) => supertest.Test>)
    [route.method](attack.url)
    .set('Origin', stack.url);
  if (cookie && !SESSION_CHANGING.has(keyOf(route))) request.set('Cookie', cookie);
  if (attack.body) request.set('Content-Type', attack.body.type).send(attack.body.raw);
  return request;
}

/** `size` requests in flight at all times (a new one as soon as one ends), taken from `items` as they go. */
async function inPool<T>(items: Iterable<T>, size: number, work: (item: T) => Promise<void>): Promise<void> {
  const next = items[Symbol.iterator]();
  const worker = async () => {
    for (let item = next.next(); !item.done; item = next.next()) await work(item.value);
  };
  await Promise.all(Array.from({ length: size }, worker));
}

/** Each route's attacks, made as the sweep reaches the route (their megabyte bodies are not all held at once). */
function* sweep(): Generator<{ route: Route; attack: Attack }> {
  for (const route of routes) for (const attack of attacksFor(route, fixtures)) yield { route, attack };
}

it('finds the routes of every module, and knows a body for each route that takes one', () => {
  const names = routes.map(keyOf);
  expect(names).toEqual(
    expect.arrayContaining([
      'GET /api/health',
      'POST /api/logs/client',
      'POST /api/auth/register',
      'GET /api/admin/:resource',
      'POST /api/system/rebuild',
      'POST /api/chat/blocks',
      'PUT /api/creators/:id/tiers/:tierId',
      'POST /api/posts/:id/comments',
    ]),
  );
  expect(
    routes
      .filter(takesBody)
      .map(keyOf)
      .filter((name) => !SAMPLES[name]),
  ).toEqual([]);
  for (const route of routes)
    for (const name of paramsOf(route.path)) expect(() => goodParam(route, name, fixtures)).not.toThrow();
});

it.each(['signed out', 'member', 'creator and finance staff'])(
  'never answers bad input with a 500, and explains every refusal in JSON (%s)',
  async (who) => {
    const failures: string[] = [];
    const validated = new Set<string>();
    let sent = 0;
    await inPool(sweep(), 12, async ({ route, attack }) => {
      sent += 1;
      const res = await send(route, attack, cookies[who]);
      tally.tried += 1;
      const where = `${keyOf(route)} [${attack.label}] -> ${res.status}`;
      if (attack.wrongType && res.status === 400 && res.body?.code === 'VALIDATION_ERROR') validated.add(keyOf(route));
      if (res.status >= 500) {
        tally.serverErrors += 1;
        failures.push(`${where} ${JSON.stringify(res.body).slice(0, 200)}`);
      } else if (
        res.status >= 400 &&
        (!/json/.test(String(res.headers['content-type'])) ||
          typeof res.body?.error !== 'string' ||
          typeof res.body?.code !== 'string')
      ) {
        failures.push(`${where}: the refusal is not JSON { error, code }`);
      } else {
        const problem = attack.check?.(res);
        if (problem) failures.push(`${where}: ${problem} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    });
    console.log(`bad-input sweep (${who}): ${sent} requests over ${routes.length} routes, ${failures.length} failures`);
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    if (who === 'creator and finance staff') {
      // This person passes every role gate: each route's own contract must have refused a wrong type.
      const withFields = routes
        .filter((route) => takesBody(route) && Object.keys(SAMPLES[keyOf(route)](fixtures)).length > 0)
        .map(keyOf);
      expect(withFields.filter((name) => !validated.has(name))).toEqual([]);
    }
    // The 500s first: they are what this test is for.
    const shown = [
      ...failures.filter((line) => / -> 5\d\d /.test(line)),
      ...failures.filter((line) => !/ -> 5\d\d /.test(line)),
    ];
    expect(shown.slice(0, 60)).toEqual([]);
  },
);

it('tried them all without one 5xx', () => {
  expect(tally.tried).toBeGreaterThan(3 * routes.length * 10);
  expect(tally.serverErrors).toBe(0);
});
