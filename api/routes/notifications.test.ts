import { randomUUID } from 'node:crypto';
import http from 'node:http';
import supertest from 'supertest';
import type { NotificationsPage, NotificationsPush } from '../../domain/contracts/notifications';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { notificationsStream } from '../../domain/notifications/events';
import { openReadDatabase } from '../../projections/engine/database';
import { createApp } from '../app';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

jest.setTimeout(180_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

interface Person {
  id: string;
  agent: supertest.Agent;
  cookie: string;
}

async function signUp(firstName: string): Promise<Person> {
  const agent = stack.agent();
  const password = 'Passw0rdOK';
  const res = await agent
    .post('/api/auth/register')
    .send({
      firstName,
      lastName: 'Bell',
      email: `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
      password,
      confirmPassword: password,
      paymentToken: `dev_tok_${firstName}`,
    })
    .expect(201);
  const person = { id: res.body.user.id, agent, cookie: String(res.headers['set-cookie'][0]).split(';')[0] };
  await eventually(
    () => agent.get('/api/auth/user'),
    (me) => me.body?.subscriptionStatus === 'active',
  );
  return person;
}

const page = async (person: Person, query = ''): Promise<NotificationsPage> =>
  (await person.agent.get(`/api/notifications${query}`).expect(200)).body;

const send = (from: Person, to: Person, content = 'Hello') =>
  from.agent.post('/api/messages').send({ receiverId: to.id, content }).expect(201);

/** Waits until `person` has `count` notifications. */
const notificationsOf = (person: Person, count: number) =>
  eventually(
    () => page(person, '?limit=50'),
    (body) => body.items.length >= count,
  );

/** A notification stream as the browser's EventSource reads it: each `notifications` event in order. */
function openStream(person: Person, origin = stack.url) {
  const events: NotificationsPush[] = [];
  const comments: string[] = [];
  let request: http.ClientRequest;
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request = http.get(`${origin}/api/notifications/stream`, {
      headers: { Cookie: person.cookie, Accept: 'text/event-stream' },
    });
    request.on('response', resolve).on('error', reject);
  });
  let buffer = '';
  void response.then((res) =>
    res.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) comments.push(block);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (block.includes('event: notifications') && data) events.push(JSON.parse(data.slice(6)));
      }
    }),
  );
  let ended = false;
  void response.then((res) => res.on('end', () => (ended = true)));
  return { response, events, comments, ended: () => ended, close: () => request.destroy() };
}

let alice: Person;
let bob: Person;
beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp('Alice'), signUp('Bob')]);
});

describe('notifications API', () => {
  it('needs a session for the list, the read marks and the stream', async () => {
    const anonymous = stack.agent();
    for (const res of [
      await anonymous.get('/api/notifications'),
      await anonymous.post('/api/notifications/read').send({}),
      await anonymous.get('/api/notifications/stream'),
    ])
      expect([res.status, res.body.error]).toEqual([401, 'Unauthorized']);
  });

  it("a message from A to B is one unread notification for B and none for A, linking to A's thread", async () => {
    const carol = await signUp('Carol');
    const dave = await signUp('Dave');
    await send(carol, dave);
    const { items, unreadCount } = await notificationsOf(dave, 1);
    expect(unreadCount).toBe(1);
    expect(items).toEqual([
      {
        id: expect.any(String),
        kind: 'new_message',
        title: 'New message',
        body: 'Carol Bell sent you a message',
        link: `/messages?user=${carol.id}`,
        read: false,
        createdAt: expect.any(String),
      },
    ]);
    await stack.settle();
    expect(await page(carol)).toEqual({ items: [], unreadCount: 0, nextCursor: null });
  });

  it('marks one read, then all, and a repeated mark writes nothing', async () => {
    const erin = await signUp('Erin');
    const fay = await signUp('Fay');
    for (const content of ['One', 'Two', 'Three']) await send(erin, fay, content);
    const { items } = await notificationsOf(fay, 3);
    const [newest] = items;
    const one = await fay.agent
      .post('/api/notifications/read')
      .send({ ids: [newest.id] })
      .expect(200);
    expect(one.body).toEqual({ unreadCount: 2 });
    expect((await page(fay)).items.map((item) => item.read)).toEqual([true, false, false]);
    // Someone else's id changes nothing of theirs.
    expect(
      (
        await erin.agent
          .post('/api/notifications/read')
          .send({ ids: [items[1].id] })
          .expect(200)
      ).body,
    ).toEqual({
      unreadCount: 0,
    });
    expect((await fay.agent.post('/api/notifications/read').send({}).expect(200)).body).toEqual({ unreadCount: 0 });
    expect((await page(fay)).items.every((item) => item.read)).toBe(true);
    await fay.agent
      .post('/api/notifications/read')
      .send({ ids: [newest.id] })
      .expect(200);
    await fay.agent.post('/api/notifications/read').send({}).expect(200);
    expect((await stack.store.readStream(notificationsStream(fay.id))).map((event) => event.data)).toEqual([
      { userId: fay.id, ids: [newest.id], upTo: null, at: expect.any(String) },
      { userId: fay.id, ids: null, upTo: expect.any(String), at: expect.any(String) },
    ]);
    expect(await stack.store.readStream(notificationsStream(erin.id))).toEqual([]);
  });

  it('pages newest first with a cursor', async () => {
    const gus = await signUp('Gus');
    const hal = await signUp('Hal');
    for (const content of ['m1', 'm2', 'm3', 'm4', 'm5']) await send(gus, hal, content);
    const all = await notificationsOf(hal, 5);
    const first = await page(hal, '?limit=2');
    const second = await page(hal, `?limit=2&cursor=${first.nextCursor}`);
    const third = await page(hal, `?limit=2&cursor=${second.nextCursor}`);
    expect([first, second, third].map((one) => one.items.length)).toEqual([2, 2, 1]);
    expect(third.nextCursor).toBeNull();
    expect([...first.items, ...second.items, ...third.items].map((item) => item.id)).toEqual(
      all.items.map((item) => item.id),
    );
    const times = all.items.map((item) => item.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(first.unreadCount).toBe(5);
  });

  it('refuses bad input with a clear 400', async () => {
    const refused = async (res: supertest.Response, field: string, message: string) => {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
      expect(Object.keys(res.body.fields)[0]).toBe(field);
    };
    const read = (body: unknown) => alice.agent.post('/api/notifications/read').send(body as object);
    await refused(await read({ ids: 'all' }), 'ids', 'ids must be a list of notification ids');
    await refused(await read({ ids: [] }), 'ids', 'ids must not be empty; leave it out to mark all read');
    await refused(await read({ ids: ['nope'] }), 'ids.0', 'Each id must be a notification id');
    await refused(await read({ everything: true }), '_', 'Only ids may be given');
    await refused(await alice.agent.get('/api/notifications?limit=0'), 'limit', 'Limit must be between 1 and 50');
    await refused(await alice.agent.get('/api/notifications?limit=abc'), 'limit', 'Limit must be a number');
    await refused(await alice.agent.get('/api/notifications?cursor=zzz'), 'cursor', 'Cursor is not valid');
    const stream = await alice.agent.get('/api/notifications/stream?x=1').expect(400);
    expect(stream.body).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('pushes a new notification on the stream within seconds of the command', async () => {
    const stream = openStream(bob);
    try {
      const res = await stream.response;
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      const hello = await eventually(
        async () => stream.events.length,
        (count) => count > 0,
        10_000,
      );
      expect(hello).toBe(1);
      expect(stream.events[0].items).toEqual([]);
      const before = stream.events[0].unreadCount;
      const sentAt = Date.now();
      await send(alice, bob, 'Live');
      await eventually(
        async () => stream.events.length,
        (count) => count > 1,
        5_000,
      );
      const latency = Date.now() - sentAt;
      expect(stream.events[1].unreadCount).toBe(before + 1);
      expect(stream.events[1].items.map((item) => [item.kind, item.body])).toEqual([
        ['new_message', 'Alice Bell sent you a message'],
      ]);
      expect(latency).toBeLessThan(5_000);
      console.log(`notification stream: pushed ${latency} ms after the command was sent`);
      // Reading it elsewhere updates the count on the open stream too.
      await bob.agent.post('/api/notifications/read').send({}).expect(200);
      await eventually(
        async () => stream.events.at(-1)?.unreadCount,
        (count) => count === 0,
        5_000,
      );
      expect(stream.events.at(-1)).toEqual({ unreadCount: 0, items: [] });
    } finally {
      stream.close();
    }
  });

  it('streams from an API process that runs no projectors (six streams on a pool of two connections), with heartbeats, and ends them after their time', async () => {
    // A second API process: its own event store and read pool on the same database, no runner.
    const url = stack.db.client.config.connection as string;
    const store = new PostgresEventStore({ connectionString: url });
    const db = openReadDatabase(url, 2);
    const ports = { ...stack.deps.ports, notificationStreams: { heartbeatMs: 300, maxStreamMs: 4000 } };
    const server = http.createServer(createApp({ ...stack.deps, store, db, ports }).app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const streams = Array.from({ length: 6 }, () => openStream(bob, origin));
    try {
      await eventually(async () => streams.every((stream) => stream.events.length > 0), Boolean, 10_000);
      await send(alice, bob, 'Across processes');
      const arrived = await eventually(
        async () => streams.filter((stream) => stream.events.some((event) => event.items.length > 0)).length,
        (count) => count === streams.length,
        5_000,
      );
      expect(arrived).toBe(streams.length);
      expect(streams[0].events.find((event) => event.items.length)?.items[0].body).toBe(
        'Alice Bell sent you a message',
      );
      // Heartbeats keep it open, and after its time the server ends it (the browser then reconnects).
      const ended = await eventually(
        async () => streams.filter((stream) => stream.ended()).length,
        (count) => count === streams.length,
        10_000,
      );
      expect(ended).toBe(streams.length);
      expect(streams[0].comments.length).toBeGreaterThan(2);
      expect(new Set(streams[0].comments)).toEqual(new Set([': heartbeat']));
    } finally {
      for (const stream of streams) stream.close();
      await new Promise((resolve) => server.close(resolve));
      await db.destroy();
      await store.close();
    }
  });
});
