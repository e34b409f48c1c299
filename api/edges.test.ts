import { randomUUID } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import supertest from 'supertest';
import { emailStream } from '../domain/accounts/events';
import { publishPost } from '../domain/posts/publish';
import { grantStaffRole } from '../domain/payouts/staff-role';
import { eventually } from '../ops/testing/eventually';
import { startTestStack, type TestStack } from '../ops/testing/harness';
import { createApp } from './app';
import { validatedParams } from './http/params';

/**
 * The edges every route shares: path ids checked before any query, one error shape for bad
 * bodies, no email address in what other members see, no-store on API answers, and real 404s
 * for missing static files.
 */

jest.setTimeout(120_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const PASSWORD = 'Passw0rdOK';
/** Which request an answer was to (for failure messages). */
const pathOf = (res: supertest.Response) => (res as unknown as { req: { path: string } }).req.path;

async function signUp(firstName: string): Promise<{ id: string; email: string; agent: supertest.Agent }> {
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const agent = stack.agent();
  const res = await agent.post('/api/auth/register').send({
    firstName,
    lastName: 'Edge',
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    paymentToken: `dev_tok_${firstName}`,
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { id: res.body.user.id, email, agent };
}

async function staff() {
  const person = await signUp('Staff');
  await grantStaffRole(stack.store, person.id, { actorId: null, now: new Date() });
  await eventually(
    () => stack.db('users').where({ id: person.id }).first('role'),
    (row) => row?.role === 'admin',
  );
  return person;
}

describe('path ids are checked before any query', () => {
  it('answers a malformed id with a 404 in the standard shape, never a SQL error', async () => {
    const admin = await staff();
    for (const url of [
      '/api/payouts/abc',
      '/api/payouts/abc/dashboard',
      '/api/payment-accounts/-1',
      '/api/creators/abc',
      '/api/posts/1/comments',
      '/api/subscriptions/check/x',
    ]) {
      const res = await admin.agent.get(url);
      expect([url, res.status, res.body.code, typeof res.body.error]).toEqual([url, 404, 'NOT_FOUND', 'string']);
    }
    await admin.agent.post('/api/admin/payouts/abc/process').send({}).expect(404);
    const stream = await admin.agent.get('/api/admin/streams/no%20such%20stream/events').expect(400);
    expect(stream.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { streamName: 'Invalid stream name' } });
  });

  it('answers a broken percent-escape in a path with a 400 VALIDATION_ERROR', async () => {
    const admin = await staff();
    for (const url of ['/api/creators/%E0%A4%A', '/api/payouts/%ED%A0%80', '/api/posts/%/like']) {
      const res = url.endsWith('like') ? await admin.agent.post(url) : await admin.agent.get(url);
      expect([url, res.status, res.body]).toEqual([
        url,
        400,
        { error: 'The path has a malformed percent-escape', code: 'VALIDATION_ERROR' },
      ]);
    }
  });

  it('refuses to start a route module whose parameter has no format', () => {
    const router = Router();
    router.get('/things/:thingId', (_req, res) => void res.end());
    expect(() => validatedParams(router)).toThrow(':thingId has no format');
  });
});

describe('one error shape for bad bodies', () => {
  const post = (body: string) =>
    stack.agent().post('/api/auth/login').set('Content-Type', 'application/json').send(body);

  it('answers malformed JSON with a 400 VALIDATION_ERROR', async () => {
    const res = await post('{"email":').expect(400);
    expect(res.body).toEqual({
      error: 'The request body is not valid JSON',
      code: 'VALIDATION_ERROR',
      fields: { _: 'The request body is not valid JSON' },
    });
  });

  it.each(['null', '"a string"', '42', 'true', '[1,2]'])(
    'answers a body of %s with a 400 VALIDATION_ERROR: it must be an object',
    async (body) => {
      const res = await post(body).expect(400);
      expect(res.body).toEqual({
        error: 'The request body must be a JSON object',
        code: 'VALIDATION_ERROR',
        fields: { _: 'The request body must be a JSON object' },
      });
    },
  );

  it('refuses NUL and lone surrogates in any field, named by the contract or not', async () => {
    const member = await signUp('Nul');
    const named = await member.agent
      .post('/api/profile')
      .send({
        displayName: 'A\u0000B',
        age: 30,
        location: 'Here',
        genderIdentity: 'woman',
        sexualOrientation: 'straight',
        relationshipType: ['dating'],
      })
      .expect(400);
    expect(named.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.any(String),
      fields: { displayName: expect.any(String) },
    });
    const unnamed = await member.agent
      .post('/api/logs/client')
      .send({ message: 'ok', context: { deep: ['fine', 'bad\ud800'] } })
      .expect(400);
    expect(unnamed.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { 'context.deep.1': expect.any(String) } });
    const query = await member.agent.get('/api/creators?q=a%00b').expect(400);
    expect(query.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { q: expect.any(String) } });
  });

  it('refuses a sign-up whose first name has a NUL or a lone surrogate with a 400, creating no one', async () => {
    for (const firstName of ['A\u0000B', '\ud800']) {
      const email = `nul-${randomUUID().slice(0, 8)}@example.com`;
      const res = await stack
        .agent()
        .post('/api/auth/register')
        .send({
          firstName,
          lastName: 'X',
          email,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          paymentToken: 'dev_tok_nul',
        })
        .expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { firstName: expect.any(String) } });
      expect(await stack.db('users').where({ email }).first()).toBeUndefined();
    }
  });
});

describe('what other members see carries no email address', () => {
  const EMAIL = /[\w.+-]+@[\w-]+\.[\w.]+/;

  /** A creator with no name at all (the SPEC's email fallback case), written as events. */
  async function namelessCreator(): Promise<string> {
    const userId = randomUUID();
    const email = `nameless-${userId}@example.com`;
    const now = new Date().toISOString();
    await stack.store.append(emailStream(email), [{ type: 'EmailClaimed', data: { userId, email, at: now } }], {
      expectedRevision: 'no_stream',
    });
    await stack.store.append(
      `user-${userId}`,
      [
        {
          type: 'UserRegistered',
          data: {
            userId,
            email,
            firstName: '',
            lastName: '',
            passwordHash: 'x',
            gatewayCustomerId: 'cus_x',
            cardLast4: '4242',
            registeredAt: now,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await stack.store.append(
      `creator-${userId}`,
      [{ type: 'CreatorRegistered', data: { userId, bio: 'No name', coverImageUrl: null, registeredAt: now } }],
      { expectedRevision: 'no_stream' },
    );
    await publishPost(
      stack.store,
      { creatorId: userId, title: 'Hello', content: 'From nobody', mediaUrl: null, isPublic: true },
      { actorId: userId, now: new Date() },
    );
    return userId;
  }

  it('shows creators, posts, comments and conversations without anyone’s email; a nameless creator is "Creator"', async () => {
    const creator = await signUp('Carla');
    await creator.agent.post('/api/creators/register').send({ bio: 'Creating' }).expect(201);
    const post = (
      await creator.agent.post('/api/posts').send({ title: 'Public', content: 'For all', isPublic: true }).expect(201)
    ).body;
    const nameless = await namelessCreator();
    const viewer = await signUp('Viewer');
    await viewer.agent.post(`/api/posts/${post.id}/comments`).send({ content: 'Nice' }).expect(201);
    await creator.agent.post('/api/messages').send({ receiverId: viewer.id, content: 'Thanks' }).expect(201);

    const list = await eventually(
      () => viewer.agent.get('/api/creators'),
      (res) => res.body.some?.((c: { id: string }) => c.id === nameless),
    );
    expect(list.body.find((c: { id: string }) => c.id === nameless).name).toBe('Creator');
    const profile = await viewer.agent.get(`/api/creators/${nameless}`).expect(200);
    expect(profile.body.name).toBe('Creator');
    const feed = await eventually(
      () => viewer.agent.get('/api/posts/feed?limit=50'),
      (res) => JSON.stringify(res.body).includes(nameless),
    );
    const answers = [
      list,
      profile,
      feed,
      await viewer.agent.get(`/api/creators/${creator.id}`).expect(200),
      await viewer.agent.get(`/api/creators/${creator.id}/posts`).expect(200),
      await viewer.agent.get(`/api/creators/${nameless}/posts`).expect(200),
      await viewer.agent.get(`/api/posts/${post.id}`).expect(200),
      await viewer.agent.get(`/api/posts/${post.id}/comments`).expect(200),
      await viewer.agent.get('/api/conversations').expect(200),
      await viewer.agent.get(`/api/conversations/${creator.id}`).expect(200),
      await creator.agent.get('/api/conversations').expect(200),
      await creator.agent.get(`/api/posts/${post.id}/comments`).expect(200),
    ];
    for (const res of answers) expect([pathOf(res), res.text.match(EMAIL)?.[0] ?? null]).toEqual([pathOf(res), null]);
  });
});

describe('caching', () => {
  it('marks API answers no-store (and hashes no ETag from them), signed in or not, errors included', async () => {
    const member = await signUp('Cache');
    for (const res of [
      await member.agent.get('/api/auth/user').expect(200),
      await member.agent.get('/api/subscription-status').expect(200),
      await member.agent.get('/api/nope').expect(404),
      await stack.agent().get('/api/auth/user').expect(401),
    ]) {
      expect([pathOf(res), res.headers['cache-control'], res.headers.etag]).toEqual([
        pathOf(res),
        'no-store',
        undefined,
      ]);
    }
  });
});

describe('the web client’s files', () => {
  const webRoot = mkdtempSync(path.join(tmpdir(), 'lively-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Lively</title>');
  writeFileSync(path.join(webRoot, 'assets', 'app-123.js'), 'console.log(1)');
  const web = () => supertest(createApp({ ...stack.deps, webRoot }).app);

  it('serves a missing asset or file as a 404, not as the HTML shell', async () => {
    for (const url of [
      '/assets/app-old.js',
      '/assets/style.css',
      '/assets/nothing',
      '/favicon.ico',
      '/robots.txt',
      '/creator/x.png',
    ]) {
      const res = await web().get(url);
      expect([url, res.status, /html/.test(String(res.headers['content-type']))]).toEqual([url, 404, false]);
    }
  });

  it('still serves real files, and the shell for client-side routes', async () => {
    await web()
      .get('/assets/app-123.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    for (const url of ['/', '/login', `/creator/${randomUUID()}`, '/dashboard'])
      await web().get(url).expect(200).expect('Content-Type', /html/);
  });
});
