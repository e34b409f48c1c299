import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ACTIVITIES, INTERESTS, ROLES } from '../../domain/contracts/chat';
import { BUCKET, clusterKeys, DEFAULT_PREFIX } from '../../realtime/cluster-protocol';
import { compileProfile } from '../../realtime/compatibility';
import { compileRequest, Matcher, type Member } from '../../realtime/matcher';
import type { MemberDirectory } from '../../realtime/members';
import { createClient } from 'redis';
import { startTestRedis, type TestRedis } from '../testing/redis-server';
import { LoadSocket, textFrame } from './_chat-load-client';

/**
 * `npm run bench -- chat [--waiting 11000] [--joiners 1000] [--rates 5000,1000] [--seconds 4]
 *   [--relay 100] [--matcher-only] [--no-blocks] [--processes 2]`
 *   (CHAT_BENCH_PROFILE=<dir> writes each realtime process's CPU profile of the closed loop,
 *   `chat-<processes>p-<index>.cpuprofile`: where a match's CPU goes, without connects and relay)
 *
 * 1. Matcher micro-benchmark (in process): 10,000 members waiting in standard mode, joiners
 *    arrive one by one; each join is matched against the waiting pool (which is topped up).
 * 2. The realtime service (realtime/server.ts, in a child process) over real sockets, driven by
 *    a raw-socket WebSocket client (_chat-load-client.ts; the `ws` package cost more CPU than
 *    the service it measured). waiting + joiners authenticated sockets (cookie token checked
 *    against the socket's userId by an in-memory directory: the database-backed one would need
 *    that many members in PostgreSQL). Needs `ulimit -n` above the socket count, in both
 *    processes. Figures: resident memory per idle socket; matches/s in a closed loop; join-to-
 *    matched p50/p99 with joins paced at fixed rates; signalling relay msgs/s; service CPU time
 *    per match and per relayed message (comparable across machine loads, unlike wall clock).
 * 3. Baseline, same client, same run: a bare uWebSockets.js echo server (msgs/s, memory/socket).
 * 4. Blocks (issue 20), unless --no-blocks: the service run again with every tenth waiting member
 *    holding 100 blocks (of joiners, the people they would otherwise meet; both ways, as the
 *    service keeps them), side by side with the run without: matches/s and join-to-matched p99.
 * 5. Processes (issue 24), with --processes N: the same service as N realtime processes on a
 *    real redis-server (started here on a free loopback port), side by side with the run on one
 *    process. The waiting members connect to the first process (the bucket's owner) and the
 *    joiners to the last, so every match and every relayed message crosses processes. Figures:
 *    join-to-matched p99 at the paced rates; service CPU per match (all processes together) against
 *    one process's; relay msgs/s against the echo baseline; memory per idle socket; and the
 *    engine's share: Redis CPU, publishes per match and per relayed message, memory per member.
 * The load generator's joiners join thousands of times a minute: the service runs here without
 * the per-member join and skip limits (the limiter is still consulted on every join).
 * Every figure is printed with the load average when it was measured (2 shared cores here).
 */
const arg = (args: string[], name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

// ---------- deterministic member data (shared by the benchmark and the server child) ----------

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
const pick = <T>(r: () => number, list: readonly T[], n: number) =>
  Array.from({ length: n }, () => list[Math.floor(r() * list.length)]);

/** Member i: even ids are women looking for men, odd ids men looking for women (so halves pair). */
function benchMember(i: number): Member {
  const r = rng(i + 1);
  const woman = i % 2 === 0;
  const profile = compileProfile(
    {
      age: 20 + Math.floor(r() * 30),
      genderIdentity: woman ? 'woman' : 'man',
      sexualOrientation: 'straight',
      relationshipType: ['dating'],
      interests: pick(r, INTERESTS, 4),
      location: 'Austin, TX',
    },
    {
      lookingForGenders: [woman ? 'man' : 'woman'],
      ageRangeMin: 18,
      ageRangeMax: 99,
      rolePreferences: pick(r, ROLES, 1),
      sexualActivities: pick(r, ACTIVITIES, 3),
      experienceLevel: 'intermediate',
    },
  );
  return { userId: `u${i}`, displayName: `Member ${i}`, profile, blocked: new Set() };
}

/**
 * Issue 20's blocked population: every tenth waiting member (user u<2i>) blocked 100 joiners
 * (odd ids): the people they would otherwise be matched with, so every block is one the matcher
 * meets. Blocks apply both ways, as the service keeps them (realtime/server.ts blockSets).
 */
function benchBlocks(waiting: number, joiners: number): Map<string, Set<string>> {
  const sets = new Map<string, Set<string>>();
  const setOf = (userId: string) => sets.get(userId) ?? sets.set(userId, new Set()).get(userId)!;
  for (let i = 0; i < waiting; i += 10) {
    const r = rng(i + 7);
    const blocker = `u${2 * i}`;
    while (setOf(blocker).size < Math.min(100, joiners)) {
      const joiner = `u${2 * Math.floor(r() * joiners) + 1}`;
      setOf(blocker).add(joiner);
      setOf(joiner).add(blocker);
    }
  }
  return sets;
}

function benchDirectory(blocks: Map<string, Set<string>> | null): MemberDirectory {
  return {
    async admit(token, userId) {
      const match = token && /^tok-(\d+)$/.exec(token);
      if (!match) return { ok: false, status: '401 Unauthorized', reason: 'Unauthorized' };
      if (userId !== `u${match[1]}`) return { ok: false, status: '403 Forbidden', reason: 'Forbidden' };
      const member = benchMember(Number(match[1]));
      return { ok: true, member: { ...member, blocked: blocks?.get(userId) ?? member.blocked }, refusal: null };
    },
    load: async () => null,
  };
}

// ---------- child roles: the realtime service, or the bare echo baseline ----------

async function serveRole(role: string) {
  let port: number;
  if (role === 'realtime') {
    const { startRealtimeServer } = await import('../../realtime/server');
    const blocks = process.env.CHAT_BENCH_BLOCKS
      ? benchBlocks(Number(process.env.CHAT_BENCH_WAITING), Number(process.env.CHAT_BENCH_JOINERS))
      : null;
    port = (
      await startRealtimeServer({
        port: 0,
        directory: benchDirectory(blocks),
        rateLimits: { joinsPerMinute: Infinity, skipsPerMinute: Infinity },
        // Only the cluster runs join one (a REDIS_URL of the shell must not turn the baseline into one).
        redisUrl: process.env.CHAT_BENCH_REDIS_URL ?? null,
      })
    ).port;
  } else {
    const uWS = (await import('uWebSockets.js')).default;
    const app = uWS.App();
    app.ws('/*', {
      maxPayloadLength: 128 * 1024,
      idleTimeout: 120,
      message: (ws, message, isBinary) => void ws.send(message, isBinary),
    });
    port = await new Promise<number>((resolve) =>
      app.listen('127.0.0.1', 0, (s) => resolve(uWS.us_socket_local_port(s))),
    );
  }
  let profiler: import('node:inspector').Session | null = null;
  process.on('message', (m: string) => {
    if (m === 'exit') process.exit(0);
    if (m === 'profile-start') {
      void import('node:inspector').then(({ Session }) => {
        profiler = new Session();
        profiler.connect();
        profiler.post('Profiler.enable', () =>
          profiler!.post('Profiler.start', () => process.send!({ profiling: true })),
        );
      });
    }
    if (m.startsWith?.('profile-stop:')) {
      profiler!.post('Profiler.stop', (error, result) => {
        if (!error) writeFileSync(m.slice('profile-stop:'.length), JSON.stringify(result.profile));
        profiler!.disconnect();
        process.send!({ profiling: false });
      });
    }
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    }
    if (m === 'rss') {
      global.gc?.();
      process.send!({ rss: process.memoryUsage().rss });
    }
  });
  process.send!({ port, rss: process.memoryUsage().rss });
}

interface Child {
  process: ChildProcess;
  port: number;
  /** Starts the CPU profiler; `stop` writes the profile to `file` (CHAT_BENCH_PROFILE). */
  profile(action: 'start' | { stop: string }): Promise<void>;
  rss(): Promise<number>;
  /** CPU time the child used so far, µs (user + system). */
  cpu(): Promise<number>;
}

/** CPU time this process used so far, µs. */
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

function startChild(role: string, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', __filename], {
    env: { ...process.env, ...env, CHAT_BENCH_ROLE: role },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m: { port: number }) =>
      resolve({
        process: child,
        port: m.port,
        profile: (action) =>
          new Promise((done) => {
            child.once('message', () => done());
            child.send(action === 'start' ? 'profile-start' : `profile-stop:${action.stop}`);
          }),
        rss: () =>
          new Promise((done) => {
            child.once('message', (r: { rss: number }) => done(r.rss));
            child.send('rss');
          }),
        cpu: () =>
          new Promise((done) => {
            child.once('message', (r: { cpu: number }) => done(r.cpu));
            child.send('cpu');
          }),
      }),
    );
  });
}

/** A full collection now (the bench runs without --expose-gc). */
function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/**
 * With `blocks`, every tenth woman added to the pool holds 100 blocks of men who join while she
 * waits (both ways, as the service keeps them). Her set is made when she joins (the service makes
 * it at admission, off the matching path): that time is left off the clock. A member's set lives
 * while the member does, so the heap holds about what the service's would.
 */
async function benchMatcher(blocks = false) {
  const waiting = 10_000;
  const joins = 100_000;
  const id = 0;
  const m = new Matcher({ newSessionId: () => `s${id}` });
  const members = Array.from({ length: 40_000 }, (_, i) => benchMember(i));
  const r = rng(99);
  /** Men's sets (the women who blocked them), until they join. */
  const menBlockedBy = new Map<string, Set<string>>();
  let joined = 0;
  let setupMs = 0;
  let setupCpu = 0;
  const blocksOf = (woman: string) => {
    const t = performance.now();
    const cpu = ownCpu();
    const set = new Set<string>();
    while (set.size < 100) {
      const man = `m${joined + Math.floor(r() * 2000)}`;
      set.add(man);
      (menBlockedBy.get(man) ?? menBlockedBy.set(man, new Set()).get(man)!).add(woman);
    }
    setupMs += performance.now() - t;
    setupCpu += ownCpu() - cpu;
    return set;
  };
  // Pool: women (even ids); joiners: men (odd ids). Each match takes one woman; top the pool up.
  let nextWoman = 0;
  const addWoman = () => {
    const w = members[(nextWoman++ * 2) % members.length];
    const userId = `w${nextWoman}`;
    const blocked = blocks && nextWoman % 10 === 0 ? blocksOf(userId) : w.blocked;
    m.join({ ...w, userId, blocked }, compileRequest(w, 'standard'), 0);
  };
  for (let i = 0; i < waiting; i++) addWoman();
  let matches = 0;
  collectGarbage(); // what building the pool left is not collected on the clock
  setupMs = setupCpu = 0;
  const t0 = performance.now();
  const cpu0 = ownCpu();
  for (let j = 0; j < joins; j++) {
    const man = members[(j * 2 + 1) % members.length];
    const userId = `m${j}`;
    const blocked = menBlockedBy.get(userId) ?? man.blocked;
    menBlockedBy.delete(userId);
    joined = j;
    const effects = m.join({ ...man, userId, blocked }, compileRequest(man, 'standard'), 0);
    if (effects.some((e) => e.type === 'matched')) {
      matches++;
      m.leave(userId, 'left', 0); // session over; the woman is re-queued: take her out, add a fresh one
      const last = effects.find((e) => e.type === 'matched');
      if (last?.type === 'matched') m.leave(last.session.user1.userId, 'left', 0);
      addWoman();
    }
  }
  const seconds = (performance.now() - t0 - setupMs) / 1000;
  const cpuPerMatch = (ownCpu() - cpu0 - setupCpu) / matches;
  return { waiting, joins, matches, perSecond: Math.round(matches / seconds), cpuPerMatch, stats: m.stats() };
}

// ---------- the load client ----------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tick = () => new Promise((r) => setImmediate(r));
const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** The first letter of a server message's type (byte 9 of `{"type":"…`): each type starts differently. */
const TYPE = { connected: 99, waiting: 119, matched: 109, skipped: 115, ice: 105, error: 101 } as const;
const typeOf = (buffer: Buffer, start: number) => buffer[start + 9];

async function openAll(
  port: (i: number) => number,
  n: number,
  path: (i: number) => string,
  headers: (i: number) => Record<string, string>,
  onFrame: (i: number, b: Buffer, s: number, e: number) => void,
) {
  const sockets: LoadSocket[] = new Array(n);
  for (let start = 0; start < n; start += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, n - start) }, async (_, k) => {
        const i = start + k;
        sockets[i] = await LoadSocket.open(port(i), path(i), headers(i), (b, s, e) => onFrame(i, b, s, e));
      }),
    );
  }
  return sockets;
}

async function until(done: () => boolean, timeoutMs: number, what: string) {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const JOIN = textFrame(JSON.stringify({ type: 'join_queue', mode: 'standard', filters: { ageRange: [18, 65] } }));
const LEAVE = textFrame(JSON.stringify({ type: 'leave' }));
const LEAVE_AND_JOIN = Buffer.concat([LEAVE, JOIN]);
const CANDIDATE = {
  candidate: 'candidate:1 1 udp 2122260223 192.168.1.2 54321 typ host generation 0',
  sdpMid: '0',
  sdpMLineIndex: 0,
};
const signal = (sessionId: string) => textFrame(JSON.stringify({ type: 'ice_candidate', sessionId, data: CANDIDATE }));

interface RealtimeOptions {
  waiting: number;
  joiners: number;
  rates: number[];
  seconds: number;
  relayRounds: number;
  /** Every tenth waiting member holds 100 blocks (benchBlocks). */
  blocks?: boolean;
  /** Realtime processes (more than one: a cluster on this Redis). */
  processes?: number;
  redis?: TestRedis;
}

/** The engine's own figures, read from INFO: publishes so far, CPU seconds, memory. */
interface EngineSample {
  publishes: number;
  cpuSeconds: number;
  usedMemory: number;
}

async function engineSample(url: string): Promise<EngineSample> {
  const client = createClient({ url });
  await client.connect();
  try {
    const info = await client.info('all');
    const field = (name: string) => Number(new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1] ?? 0);
    const publishes = Number(/^cmdstat_publish:calls=(\d+)/m.exec(info)?.[1] ?? 0);
    return {
      publishes,
      cpuSeconds: field('used_cpu_sys') + field('used_cpu_user'),
      usedMemory: field('used_memory'),
    };
  } finally {
    await client.close();
  }
}

/** The service: one realtime process, or a cluster whose first process owns the bucket before the others start. */
async function startService(o: RealtimeOptions): Promise<Child[]> {
  const env: Record<string, string> = o.blocks
    ? { CHAT_BENCH_BLOCKS: '1', CHAT_BENCH_WAITING: String(o.waiting), CHAT_BENCH_JOINERS: String(o.joiners) }
    : {};
  if ((o.processes ?? 1) <= 1) return [await startChild('realtime', env)];
  const url = o.redis!.url;
  const first = await startChild('realtime', { ...env, CHAT_BENCH_REDIS_URL: url });
  const client = createClient({ url });
  await client.connect();
  while (!(await client.get(clusterKeys(DEFAULT_PREFIX).lease(BUCKET)))) await sleep(20);
  await client.close();
  const rest = await Promise.all(
    Array.from({ length: o.processes! - 1 }, () => startChild('realtime', { ...env, CHAT_BENCH_REDIS_URL: url })),
  );
  return [first, ...rest];
}

/**
 * The realtime service over real sockets. `waiting` members (women, even ids) wait in standard
 * mode; `joiners` (men, odd ids) join, are matched, leave (the service puts the partner back in
 * the queue, so the pool never drops below waiting − joiners) and join again.
 * - throughput: closed loop, every joiner always has a join in flight, for `seconds`;
 * - latency: open loop, joins paced at `rate`/s, each measured from its scheduled send time;
 * - relay: the joiners stay matched and each sends `relayRounds` ICE candidates to its partner.
 */
async function benchRealtime(o: RealtimeOptions) {
  const servers = await startService(o);
  // All processes together: CPU and memory are summed, so one process and a cluster compare as services.
  const server = {
    rss: async () => (await Promise.all(servers.map((s) => s.rss()))).reduce((a, b) => a + b, 0),
    /** Each process's CPU so far, µs. */
    cpus: () => Promise.all(servers.map((s) => s.cpu())),
    cpu: async () => (await server.cpus()).reduce((a, b) => a + b, 0),
  };
  const engine = o.redis ? () => engineSample(o.redis!.url) : async () => null;
  const engineBefore = await engine();
  const rssBefore = await server.rss();
  const total = o.waiting + o.joiners;
  const userOf = (i: number) => (i < o.waiting ? 2 * i : 2 * (i - o.waiting) + 1);
  let connected = 0;
  let waitingAcks = 0;
  let relayed = 0;
  let matches = 0;
  let mode: 'loop' | 'paced' | 'stay' = 'loop';
  const sentAt = new Float64Array(o.joiners);
  const free: number[] = [];
  const sessions: string[] = new Array(o.joiners);
  let latencies: number[] = [];
  let sockets: LoadSocket[] = [];

  const onFrame = (i: number, b: Buffer, s: number, e: number) => {
    const type = typeOf(b, s);
    if (type === TYPE.connected) connected++;
    else if (i < o.waiting) {
      if (type === TYPE.waiting) waitingAcks++;
      else if (type === TYPE.ice) relayed++;
    } else if (type === TYPE.matched) {
      const j = i - o.waiting;
      const now = performance.now();
      latencies.push(now - sentAt[j]);
      matches++;
      if (mode === 'loop') {
        sentAt[j] = now;
        sockets[i].send(LEAVE_AND_JOIN);
      } else if (mode === 'paced') {
        sockets[i].send(LEAVE);
        free.push(j);
      } else sessions[j] = JSON.parse(b.toString('utf8', s, e)).sessionId;
    } else if (type === TYPE.error) throw new Error(`server error: ${b.toString('utf8', s, e)}`);
  };

  const t0 = performance.now();
  // Waiting members on the first process (the owner), joiners on the last: every match crosses.
  sockets = await openAll(
    (i) => (i < o.waiting ? servers[0] : servers[servers.length - 1]).port,
    total,
    (i) => `/ws/chat?userId=u${userOf(i)}`,
    (i) => ({ Cookie: `lively.sid=tok-${userOf(i)}` }),
    onFrame,
  );
  await until(() => connected === total, 60_000, 'connected');
  const connectSeconds = (performance.now() - t0) / 1000;
  await sleep(1000);
  const rssIdle = await server.rss();
  const engineIdle = await engine();
  const idleLoad = load();

  for (let i = 0; i < o.waiting; i++) {
    sockets[i].send(JOIN);
    if (i % 1000 === 999) await tick();
  }
  await until(() => waitingAcks >= o.waiting, 60_000, 'the waiting pool');

  // Throughput: closed loop.
  const throughputLoad = load();
  mode = 'loop';
  matches = 0;
  latencies = [];
  const profileDir = process.env.CHAT_BENCH_PROFILE;
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true }); // the child processes write there and cannot say it is missing
    await Promise.all(servers.map((s) => s.profile('start')));
  }
  const [serverCpu0, clientCpu0, engine0] = [await server.cpus(), ownCpu(), await engine()];
  const loopStart = performance.now();
  for (let j = 0; j < o.joiners; j++) {
    sentAt[j] = performance.now();
    sockets[o.waiting + j].send(JOIN);
  }
  await sleep(o.seconds * 1000);
  const loopMatches = matches;
  const loopSeconds = (performance.now() - loopStart) / 1000;
  const [serverCpu1, clientCpu1, engine1] = [await server.cpus(), ownCpu(), await engine()];
  if (profileDir)
    await Promise.all(
      servers.map((s, i) =>
        s.profile({
          stop: path.join(profileDir, `chat-${servers.length}p-${i}${o.blocks ? '-blocks' : ''}.cpuprofile`),
        }),
      ),
    );
  const byProcess = serverCpu1.map((cpu, i) => (cpu - serverCpu0[i]) / loopMatches);
  const loopCpu = {
    server: byProcess.reduce((a, b) => a + b, 0),
    /** Each process's share (in a cluster: the owner first). */
    byProcess,
    client: (clientCpu1 - clientCpu0) / loopMatches,
    engine: engine0 && engine1 ? ((engine1.cpuSeconds - engine0.cpuSeconds) * 1e6) / loopMatches : null,
  };
  // Publishes per match in the closed loop: each round is a leave and a join too, as a member's "Next" is.
  const publishesPerMatch = engine0 && engine1 ? (engine1.publishes - engine0.publishes) / loopMatches : null;
  const loopLatencies = Float64Array.from(latencies).sort();
  mode = 'paced'; // the joins still in flight end with a leave and free their joiner
  await until(() => free.length === o.joiners, 30_000, 'the closed loop to finish');

  // Latency: open loop at each rate, measured from each join's scheduled time (a late send counts).
  const paced = [];
  for (const rate of o.rates) {
    const pacedLoad = load();
    const pacedEngine0 = await engine();
    latencies = [];
    const planned = Math.round(rate * o.seconds);
    const pacedStart = performance.now();
    let scheduled = 0;
    let backlogged = 0;
    while (scheduled < planned) {
      const due = Math.min(planned, Math.floor(((performance.now() - pacedStart) * rate) / 1000));
      while (scheduled < due && free.length > 0) {
        const j = free.pop()!;
        sentAt[j] = pacedStart + (scheduled * 1000) / rate;
        sockets[o.waiting + j].send(JOIN);
        scheduled++;
      }
      if (scheduled < due) backlogged++;
      await sleep(1); // a timer, not a spin: the client must not take a core from the service
    }
    await until(() => latencies.length >= planned, 60_000, 'the paced joins');
    const pacedSeconds = (performance.now() - pacedStart) / 1000;
    const sorted = Float64Array.from(latencies).sort();
    await until(() => free.length === o.joiners, 30_000, 'the paced joins to leave');
    const pacedEngine1 = await engine();
    paced.push({
      /** Redis publishes per join (its match and leave included): batches are small at a paced rate. */
      publishesPerJoin:
        pacedEngine0 && pacedEngine1 ? (pacedEngine1.publishes - pacedEngine0.publishes) / planned : null,
      rate,
      joins: planned,
      perSecond: Math.round(planned / pacedSeconds),
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      backlogged,
      load: pacedLoad,
    });
  }

  // Relay: stable pairs; every joiner sends `relayRounds` candidates to its partner.
  mode = 'stay';
  for (let j = 0; j < o.joiners; j++) sockets[o.waiting + j].send(JOIN);
  await until(() => sessions.filter(Boolean).length === o.joiners, 30_000, 'the relay pairs');
  const frames = sessions.map(signal);
  const relayLoad = load();
  const relayTarget = o.joiners * o.relayRounds;
  const relayCpu0 = await server.cpu();
  const relayEngine0 = await engine();
  const relayStart = performance.now();
  await sendRounds(o.relayRounds, o.joiners, (j) => sockets[o.waiting + j].send(frames[j]));
  await until(() => relayed >= relayTarget, 60_000, 'the relayed messages');
  const relaySeconds = (performance.now() - relayStart) / 1000;
  const relayCpu = ((await server.cpu()) - relayCpu0) / relayed;
  const relayEngine1 = await engine();
  for (const ws of sockets) ws.destroy();
  for (const child of servers) child.process.send('exit');
  await Promise.all(servers.map((child) => new Promise((resolve) => child.process.once('exit', resolve))));
  return {
    processes: servers.length,
    engine:
      engineBefore && engineIdle && relayEngine0 && relayEngine1
        ? {
            bytesPerMember: Math.round((engineIdle.usedMemory - engineBefore.usedMemory) / total),
            publishesPerMatch: publishesPerMatch!,
            cpuPerMatch: loopCpu.engine!,
            publishesPerRelayed: (relayEngine1.publishes - relayEngine0.publishes) / relayed,
            cpuPerRelayed: ((relayEngine1.cpuSeconds - relayEngine0.cpuSeconds) * 1e6) / relayed,
          }
        : null,
    sockets: total,
    connectSeconds,
    bytesPerIdleSocket: Math.round((rssIdle - rssBefore) / total),
    idleLoad,
    loop: {
      matches: loopMatches,
      perSecond: Math.round(loopMatches / loopSeconds),
      p50: percentile(loopLatencies, 50),
      p99: percentile(loopLatencies, 99),
      load: throughputLoad,
      cpu: loopCpu,
    },
    paced,
    relay: { messages: relayed, perSecond: Math.round(relayed / relaySeconds), load: relayLoad, cpu: relayCpu },
  };
}

/** `rounds` rounds of one send per sender; the client yields now and then so it also reads. */
async function sendRounds(rounds: number, senders: number, sendOne: (j: number) => void) {
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < senders; j++) sendOne(j);
    if (r % 5 === 4) await tick();
  }
}

/** Baseline: a bare uWebSockets.js echo server, the same client, socket count, senders and message. */
async function benchEcho(total: number, senders: number, rounds: number) {
  const server = await startChild('echo');
  const rssBefore = await server.rss();
  let echoed = 0;
  const sockets = await openAll(
    () => server.port,
    total,
    () => '/echo',
    () => ({}),
    () => void echoed++,
  );
  await sleep(1000);
  const rssIdle = await server.rss();
  const frame = signal('00000000-0000-4000-8000-000000000000');
  const echoLoad = load();
  const cpu0 = await server.cpu();
  const t0 = performance.now();
  await sendRounds(rounds, senders, (j) => sockets[j].send(frame));
  await until(() => echoed >= senders * rounds, 60_000, 'the echoes');
  const seconds = (performance.now() - t0) / 1000;
  const cpu = ((await server.cpu()) - cpu0) / echoed;
  for (const ws of sockets) ws.destroy();
  server.process.send('exit');
  return {
    echoed,
    perSecond: Math.round(echoed / seconds),
    bytesPerIdleSocket: Math.round((rssIdle - rssBefore) / total),
    load: echoLoad,
    cpu,
  };
}

export async function run(args: string[]): Promise<void> {
  const o: RealtimeOptions = {
    waiting: arg(args, 'waiting', 11_000),
    joiners: arg(args, 'joiners', 1_000),
    rates: (args.includes('--rates') ? args[args.indexOf('--rates') + 1] : '5000,1000').split(',').map(Number),
    seconds: arg(args, 'seconds', 4),
    relayRounds: arg(args, 'relay', 100),
  };
  console.log(`Load average at start: ${load()} (2 cores; figures are noisy while other work runs)`);
  console.log('Matcher micro-benchmark (in process, standard mode)...');
  const matcher = await benchMatcher();
  console.log(
    `  ${matcher.waiting} waiting, ${matcher.joins} joins: ${matcher.matches} matches, ${matcher.perSecond} matches/s (target >= 20,000); CPU ${matcher.cpuPerMatch.toFixed(1)} µs per match [load ${load()}]`,
  );
  if (!args.includes('--no-blocks')) {
    const blocked = await benchMatcher(true);
    console.log(
      `  with blocks (every tenth waiting holds 100): ${blocked.matches} matches, ${blocked.perSecond} matches/s; CPU ${blocked.cpuPerMatch.toFixed(1)} µs per match: ${((matcher.cpuPerMatch / blocked.cpuPerMatch) * 100).toFixed(0)}% of the rate without by CPU (target >= 80%) [load ${load()}]`,
    );
  }
  if (args.includes('--matcher-only')) return;

  const total = o.waiting + o.joiners;
  console.log(
    `Realtime service over real sockets: ${o.waiting} waiting + ${o.joiners} joining = ${total} authenticated sockets (needs ulimit -n > ${total + 100}; now ${openFileLimit()})...`,
  );
  const rt = await benchRealtime(o);
  console.log(
    `  connected ${rt.sockets} sockets in ${rt.connectSeconds.toFixed(1)} s; resident memory per idle socket ${rt.bytesPerIdleSocket} B (target <= 4096) [load ${rt.idleLoad}]`,
  );
  console.log(
    `  throughput, closed loop (${o.joiners} joiners, >= ${o.waiting - o.joiners} waiting): ${rt.loop.matches} matches, ${rt.loop.perSecond} matches/s (target >= 5,000); join-to-matched p50 ${rt.loop.p50.toFixed(1)} ms, p99 ${rt.loop.p99.toFixed(1)} ms [load ${rt.loop.load}]`,
  );
  console.log(
    `    CPU per match: service ${rt.loop.cpu.server.toFixed(0)} µs, load client ${rt.loop.cpu.client.toFixed(0)} µs (a core of its own would serve ${Math.round(1e6 / rt.loop.cpu.server)} matches/s)`,
  );
  for (const p of rt.paced) {
    console.log(
      `  latency, joins paced at ${p.rate}/s (>= ${o.waiting - o.joiners} waiting): ${p.joins} joins at ${p.perSecond}/s; join-to-matched p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms (target p99 < 50 ms)${p.backlogged ? `; no joiner was free ${p.backlogged} times when joins were due` : ''} [load ${p.load}]`,
    );
  }
  console.log(
    `  relay: ${rt.relay.messages} signalling messages over ${o.joiners} pairs, ${rt.relay.perSecond} msgs/s; service CPU ${rt.relay.cpu.toFixed(1)} µs/message [load ${rt.relay.load}]`,
  );

  console.log(`Baseline: bare uWebSockets.js echo server, same client, ${total} sockets, ${o.joiners} senders...`);
  const echo = await benchEcho(total, o.joiners, o.relayRounds);
  console.log(
    `  echo: ${echo.echoed} messages, ${echo.perSecond} msgs/s; server CPU ${echo.cpu.toFixed(1)} µs/message; resident memory per idle socket ${echo.bytesPerIdleSocket} B [load ${echo.load}]`,
  );
  console.log(
    `Relay / echo throughput: ${((rt.relay.perSecond / echo.perSecond) * 100).toFixed(0)}% (target >= 50%); by server CPU per message: ${((echo.cpu / rt.relay.cpu) * 100).toFixed(0)}%`,
  );
  if (!args.includes('--no-blocks')) await compareBlocks(o, rt);
  const processes = arg(args, 'processes', 1);
  if (processes > 1) await compareProcesses(o, processes, rt, echo);
}

/** A printer of rows comparing two runs: a label, each run's figure, and the target. */
const sideBySide =
  (labelWidth: number, firstWidth: number, secondWidth: number) =>
  (what: string, a: string, b: string, target: string) =>
    console.log(`  ${what.padEnd(labelWidth)}${a.padStart(firstWidth)}${b.padStart(secondWidth)}   ${target}`);

/** Issue 24: the service as `processes` realtime processes on Redis, beside the run on one. */
async function compareProcesses(
  o: RealtimeOptions,
  processes: number,
  one: Awaited<ReturnType<typeof benchRealtime>>,
  echo: Awaited<ReturnType<typeof benchEcho>>,
) {
  console.log(
    `Processes: the service as ${processes} realtime processes on a local redis-server; waiting members on the first (the matcher's owner), joiners on the last: every match and relayed message crosses processes...`,
  );
  // The CPU ratio's single process runs again just before and just after the cluster: the
  // machine's speed drifts over the minute between the first run and this one.
  const oneBefore = await benchRealtime(o);
  const redis = await startTestRedis();
  let many: Awaited<ReturnType<typeof benchRealtime>>;
  try {
    many = await benchRealtime({ ...o, processes, redis });
  } finally {
    await redis.stop();
  }
  const oneAfter = await benchRealtime(o);
  const oneCpu = (oneBefore.loop.cpu.server + oneAfter.loop.cpu.server) / 2;
  const row = sideBySide(36, 16, 18);
  row('', '1 process', `${processes} processes`, 'target');
  for (const [i, p] of one.paced.entries()) {
    const q = many.paced[i]!;
    row(
      `join-to-matched p99 at ${p.rate}/s`,
      `${p.p99.toFixed(1)} ms`,
      `${q.p99.toFixed(1)} ms`,
      p.rate === 1000 ? `< 50 ms: ${q.p99 < 50 ? 'met' : 'NOT met'} [load ${q.load}]` : `[load ${q.load}]`,
    );
    row(`join-to-matched p50 at ${p.rate}/s`, `${p.p50.toFixed(1)} ms`, `${q.p50.toFixed(1)} ms`, '');
    row(`Redis publishes per join at ${p.rate}/s`, '', (q.publishesPerJoin ?? 0).toFixed(2), '(join, match, leave)');
  }
  const cpuRatio = many.loop.cpu.server / oneCpu;
  row(
    'service CPU per match (closed loop)',
    `${oneCpu.toFixed(0)} µs`,
    `${many.loop.cpu.server.toFixed(0)} µs`,
    `<= 1.3x of one: ${cpuRatio.toFixed(2)}x ${cpuRatio <= 1.3 ? 'met' : 'NOT met'} [load ${many.loop.load}]`,
  );
  row(
    '  of which each process',
    '',
    many.loop.cpu.byProcess.map((c) => c.toFixed(0)).join(' + ') + ' µs',
    '(owner first)',
  );
  row(
    '  one process just before / after',
    `${oneBefore.loop.cpu.server.toFixed(0)} / ${oneAfter.loop.cpu.server.toFixed(0)} µs`,
    '',
    `(the first run: ${one.loop.cpu.server.toFixed(0)} µs)`,
  );
  row('matches/s (closed loop)', String(one.loop.perSecond), String(many.loop.perSecond), `[load ${many.loop.load}]`);
  const relayShare = many.relay.perSecond / echo.perSecond;
  row(
    'relay msgs/s',
    String(one.relay.perSecond),
    String(many.relay.perSecond),
    `>= 50% of echo (${echo.perSecond}/s): ${(relayShare * 100).toFixed(0)}% ${relayShare >= 0.5 ? 'met' : 'NOT met'} [load ${many.relay.load}]`,
  );
  row('service CPU per relayed message', `${one.relay.cpu.toFixed(1)} µs`, `${many.relay.cpu.toFixed(1)} µs`, '');
  row('memory per idle socket (all procs)', `${one.bytesPerIdleSocket} B`, `${many.bytesPerIdleSocket} B`, '');
  if (many.engine) {
    const e = many.engine;
    console.log(
      `  engine (redis-server): ${e.publishesPerMatch.toFixed(3)} publishes and ${e.cpuPerMatch.toFixed(0)} µs CPU per match (closed loop: join, match, leave); ${e.publishesPerRelayed.toFixed(3)} publishes and ${e.cpuPerRelayed.toFixed(1)} µs CPU per relayed message; ${e.bytesPerMember} B of Redis memory per connected member (its key)`,
    );
  }
}

/** Issue 20: the same service run with blocks, side by side with the run without. */
async function compareBlocks(o: RealtimeOptions, without: Awaited<ReturnType<typeof benchRealtime>>) {
  const blockers = Math.ceil(o.waiting / 10);
  console.log(
    `Blocks: the service run again with ${blockers} of the ${o.waiting} waiting (10%) holding ${Math.min(100, o.joiners)} blocks each, of joiners (both ways)...`,
  );
  const withBlocks = await benchRealtime({ ...o, blocks: true });
  const row = sideBySide(34, 16, 16);
  row('', 'without blocks', 'with blocks', 'target');
  const ratio = withBlocks.loop.perSecond / without.loop.perSecond;
  row(
    'matches/s, closed loop',
    String(without.loop.perSecond),
    `${withBlocks.loop.perSecond} (${(ratio * 100).toFixed(0)}%)`,
    `>= 80% of without: ${ratio >= 0.8 ? 'met' : 'NOT met'}`,
  );
  const cpuRatio = without.loop.cpu.server / withBlocks.loop.cpu.server;
  row(
    'service CPU per match',
    `${without.loop.cpu.server.toFixed(0)} µs`,
    `${withBlocks.loop.cpu.server.toFixed(0)} µs`,
    `by CPU, with = ${(cpuRatio * 100).toFixed(0)}% of the rate without (moves less with load)`,
  );
  for (const [i, p] of without.paced.entries()) {
    const q = withBlocks.paced[i]!;
    row(
      `join-to-matched p99 at ${p.rate}/s`,
      `${p.p99.toFixed(1)} ms`,
      `${q.p99.toFixed(1)} ms`,
      p.rate === 1000 ? `< 50 ms: ${q.p99 < 50 ? 'met' : 'NOT met'}` : '',
    );
  }
  row('load average (closed loop)', without.loop.load, withBlocks.loop.load, '');
}

/** The open-file limit of this process (each socket is a descriptor, in the client and in the server). */
function openFileLimit(): string {
  try {
    return execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim();
  } catch {
    return 'unknown';
  }
}

if (process.env.CHAT_BENCH_ROLE) void serveRole(process.env.CHAT_BENCH_ROLE);
