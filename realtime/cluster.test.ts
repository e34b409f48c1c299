import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createClient } from 'redis';
import { sessionStream } from '../domain/chat/events';
import { ChatClient, registerMember, type TestMember } from '../ops/testing/chat-client';
import { eventually } from '../ops/testing/eventually';
import { startTestStack, type TestStack } from '../ops/testing/harness';
import { redisServerPath, startTestRedis, type TestRedis } from '../ops/testing/redis-server';

/**
 * Issue 24: several realtime processes behave as one chat service on Redis. A real stack (API,
 * PostgreSQL, projections) registers the members; the realtime processes under test are child
 * processes that share nothing but that database and a real redis-server.
 */

interface RealtimeProcess {
  child: ChildProcess;
  url: string;
}

const haveRedis = redisServerPath() !== null;
if (!haveRedis) {
  const line = 'realtime cluster tests SKIPPED: redis-server is not installed (apt-get install redis-server)';
  if (process.env.CI === 'true') throw new Error(line);
  console.warn(line);
}
const suite = haveRedis ? describe : describe.skip;

let stack: TestStack;
let redis: TestRedis;
/** The stack's database, on the run's PostgreSQL server (LIVELY_TEST_ADMIN_URL, from global setup). */
let testDatabaseUrl: string;
const processes: RealtimeProcess[] = [];

/** A realtime process of the cluster, once it listens. */
function startProcess(): Promise<RealtimeProcess> {
  const databaseUrl = testDatabaseUrl;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(__dirname, '../ops/testing/realtime-cluster-worker.ts')],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"port"'));
      if (line) {
        const started = { child, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}` };
        processes.push(started);
        resolve(started);
      }
    });
    child.once('exit', (code) => reject(new Error(`realtime process exited (${code})`)));
  });
}

/** Until some process holds the bucket's lease. */
async function leaseHeld(): Promise<void> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    while (!(await client.get('lively:chat:owner:0'))) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await client.close();
  }
}

function kill(realtime: RealtimeProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => realtime.child.once('exit', () => resolve()));
  realtime.child.kill('SIGKILL');
  return exited;
}

beforeAll(async () => {
  if (!haveRedis) return;
  [stack, redis] = await Promise.all([startTestStack(), startTestRedis()]);
  const url = new URL(process.env.LIVELY_TEST_ADMIN_URL!);
  url.pathname = `/${(await stack.db.raw('SELECT current_database() AS name')).rows[0].name}`;
  testDatabaseUrl = url.toString();
}, 60_000);

afterAll(async () => {
  ChatClient.terminateAll();
  for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await redis?.stop();
  await stack?.close();
}, 30_000);

const connect = (realtime: RealtimeProcess, member: TestMember) =>
  ChatClient.connect(realtime.url, member.token, member.userId);

async function connected(realtime: RealtimeProcess, member: TestMember): Promise<ChatClient> {
  const client = await connect(realtime, member);
  await client.next('connected');
  return client;
}

/** Both join random chat (the first waits first) and are matched: the session id. */
async function matchPair(first: ChatClient, second: ChatClient): Promise<string> {
  const since = [first.messages.length, second.messages.length];
  first.send({ type: 'join_queue', mode: 'random' });
  await first.next('waiting', 10_000, since[0]);
  second.send({ type: 'join_queue', mode: 'random' });
  const [a, b] = await Promise.all([first.next('matched', 10_000, since[0]), second.next('matched', 10_000, since[1])]);
  expect(a.sessionId).toBe(b.sessionId);
  return a.sessionId;
}

/** The partner of a dead process's member hears the call ended and waits again. */
async function toldAndRequeued(client: ChatClient, sessionId: string, since: number, timeoutMs: number) {
  expect(await client.next('skipped', timeoutMs, since)).toEqual({ type: 'skipped', sessionId });
  await client.next('waiting', 10_000, since);
}

/** The member reconnects to `server`, joins, and is matched with `waiting`: the new session's id. */
async function meetAgain(
  server: RealtimeProcess,
  member: TestMember,
  waiting: ChatClient,
  since: number,
): Promise<{ client: ChatClient; sessionId: string }> {
  const client = await connected(server, member);
  client.send({ type: 'join_queue', mode: 'random' });
  const [again, forWaiting] = await Promise.all([
    client.next('matched', 10_000),
    waiting.next('matched', 10_000, since),
  ]);
  expect(again.sessionId).toBe(forWaiting.sessionId);
  return { client, sessionId: again.sessionId };
}

suite('chat across realtime processes (REDIS_URL)', () => {
  let one: RealtimeProcess;
  let two: RealtimeProcess;

  beforeAll(async () => {
    one = await startProcess();
    await leaseHeld(); // the first process owns the bucket: the kill below takes a non-owner
    two = await startProcess();
  }, 60_000);

  it('matches members of two processes, relays signalling across, re-queues on skip, and keeps a skipped pair apart', async () => {
    const [ann, bob] = await Promise.all([registerMember(stack, 'Ann'), registerMember(stack, 'Bob')]);
    const a = await connected(one, ann);
    const b = await connected(two, bob);
    const sessionId = await matchPair(a, b);
    const [forAnn, forBob] = [
      a.messages.find((m) => m.type === 'matched'),
      b.messages.find((m) => m.type === 'matched'),
    ];
    expect([forAnn, forBob].map((m) => m?.type === 'matched' && m.data.isInitiator).sort()).toEqual([false, true]);

    a.send({ type: 'offer', sessionId, data: { type: 'offer', sdp: 'v=0' } });
    expect(await b.next('offer')).toEqual({ type: 'offer', sessionId, data: { type: 'offer', sdp: 'v=0' } });
    b.send({ type: 'answer', sessionId, data: { type: 'answer', sdp: 'v=0' } });
    expect((await a.next('answer')).data).toEqual({ type: 'answer', sdp: 'v=0' });
    b.send({ type: 'ice_candidate', sessionId: 'stale', data: { candidate: 'x' } });
    b.send({ type: 'ice_candidate', sessionId, data: { candidate: 'y' } });
    expect((await a.next('ice_candidate')).data).toEqual({ candidate: 'y' }); // the stale one was dropped

    // Bob skips: Ann is told and waits again; Bob's new join waits too: the skipped pair is not matched.
    const [aBefore, bBefore] = [a.messages.length, b.messages.length];
    b.send({ type: 'skip', sessionId });
    expect(await a.next('skipped', 10_000, aBefore)).toEqual({ type: 'skipped', sessionId });
    await a.next('waiting', 10_000, aBefore);
    b.send({ type: 'join_queue', mode: 'random' });
    await b.next('waiting', 10_000, bBefore);
    expect([...a.messages.slice(aBefore), ...b.messages.slice(bBefore)].some((m) => m.type === 'matched')).toBe(false);

    // Someone new meets the one who waited longest (Ann): the queue is one across processes.
    const cay = await connected(two, await registerMember(stack, 'Cay'));
    cay.send({ type: 'join_queue', mode: 'random' });
    const [withCay, forAnnAgain] = await Promise.all([cay.next('matched', 10_000), a.next('matched', 10_000, aBefore)]);
    expect(withCay.sessionId).toBe(forAnnAgain.sessionId);

    // Recorded once (by the owner): one start and one end, as the skip left it.
    const row = await eventually(
      () => stack.db('chat_sessions').where({ room_id: sessionId }).first(),
      (r) => r?.status === 'skipped',
    );
    expect(row).toMatchObject({ ended_by: bob.userId, end_reason: 'skipped' });
    const types = (await stack.store.readStream(sessionStream(sessionId))).map((e) => e.type);
    expect(types).toEqual(['ChatSessionStarted', 'ChatSessionEnded']);
    for (const client of [a, b, cay]) client.close();
  }, 90_000);

  it('never matches a blocked pair on two processes (the blocks travel with the join)', async () => {
    const [hal, ivy] = await Promise.all([registerMember(stack, 'Hal'), registerMember(stack, 'Ivy')]);
    expect((await hal.agent.post('/api/blocks').send({ userId: ivy.userId })).status).toBe(201);
    // Admission reads the blocks from the read model: wait until it has this one.
    await eventually(
      () => stack.db('user_blocks').where({ blocker_id: hal.userId, blocked_id: ivy.userId }).first(),
      (row) => row !== undefined,
    );
    const h = await connected(one, hal);
    const i = await connected(two, ivy);
    h.send({ type: 'join_queue', mode: 'random' });
    await h.next('waiting', 10_000);
    i.send({ type: 'join_queue', mode: 'random' });
    await i.next('waiting', 10_000); // the owner saw both and paired nobody
    expect([...h.messages, ...i.messages].some((m) => m.type === 'matched')).toBe(false);
    h.close();
    i.close();
  }, 60_000);

  it('never puts a member in two matches when many join at once on both processes', async () => {
    const members = await Promise.all(Array.from({ length: 10 }, (_, i) => registerMember(stack, `Many${i}`)));
    const clients = await Promise.all(members.map((m, i) => connected(i % 2 ? two : one, m)));
    for (const client of clients) client.send({ type: 'join_queue', mode: 'random' });
    const matched = await Promise.all(clients.map((c) => c.next('matched', 20_000)));
    // Everyone was matched exactly once, and every session has exactly the two members who were told of it.
    const bySession = new Map<string, number[]>();
    matched.forEach((m, i) => bySession.set(m.sessionId, [...(bySession.get(m.sessionId) ?? []), i]));
    expect([...bySession.values()].map((pair) => pair.length)).toEqual(Array(5).fill(2));
    for (const client of clients) expect(client.messages.filter((m) => m.type === 'matched')).toHaveLength(1);
    for (const client of clients) client.close();
  }, 90_000);

  it('ends the sessions of a killed process: partners are told and re-queued, its members carry on elsewhere', async () => {
    const [dee, eli] = await Promise.all([registerMember(stack, 'Dee'), registerMember(stack, 'Eli')]);
    const d = await connected(one, dee);
    const e = await connected(two, eli);
    const sessionId = await matchPair(d, e);
    const before = d.messages.length;
    await kill(two);
    // Within the heartbeat's lifetime and a sweep: Dee hears the call ended and waits again.
    await toldAndRequeued(d, sessionId, before, 10_000);
    // Eli's page reconnects to the process that is left, joins, and meets Dee again (no cool-down for a crash).
    const { client: e2, sessionId: again } = await meetAgain(one, eli, d, before);
    expect(again).not.toBe(sessionId);
    const row = await eventually(
      () => stack.db('chat_sessions').where({ room_id: sessionId }).first(),
      (r) => r?.end_reason === 'disconnected',
    );
    expect(row).toMatchObject({ ended_by: eli.userId, end_reason: 'disconnected' });
    d.close();
    e2.close();
  }, 90_000);

  it('survives the death of the matching process: another takes the bucket, and its members are let go', async () => {
    const three = await startProcess();
    const [fay, gil] = await Promise.all([registerMember(stack, 'Fay'), registerMember(stack, 'Gil')]);
    const f = await connected(three, fay);
    const g = await connected(one, gil); // `one` owns the bucket
    const sessionId = await matchPair(f, g);
    const before = f.messages.length;
    await kill(one);
    // `three` takes the lease, hears Fay is in a call whose other side never comes back, and ends it.
    await toldAndRequeued(f, sessionId, before, 15_000);
    const { client: g2 } = await meetAgain(three, gil, f, before);
    f.close();
    g2.close();
  }, 90_000);
});
