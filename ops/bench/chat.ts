import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ACTIVITIES, INTERESTS, ROLES } from '../../domain/contracts/chat';
import { compileProfile } from '../../realtime/compatibility';
import { compileRequest, Matcher, type Member } from '../../realtime/matcher';
import type { MemberDirectory } from '../../realtime/members';

/**
 * `npm run bench -- chat [--sockets 10000] [--relay 20] [--matcher-only]`
 *
 * 1. Matcher micro-benchmark (in process): 10,000 members waiting in standard mode, joiners
 *    arrive one by one; each join is matched against the waiting pool (which is topped up).
 * 2. The realtime service (realtime/server.ts, in a child process) driven over real sockets by a
 *    `ws` client: N authenticated sockets (cookie token checked against the socket's userId by
 *    an in-memory directory: the DB-backed one would need N users in PostgreSQL); half join and
 *    wait, the other half join and are matched (matches/s, join-to-matched p50/p99); every pair
 *    relays signalling messages (msgs/s); resident memory per idle socket.
 * 3. Baseline, same client, same run: a bare uWebSockets.js echo server (msgs/s, memory/socket).
 */

const arg = (args: string[], name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

// ---------- deterministic member data (shared by the benchmark and the server child) ----------

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const pick = <T>(r: () => number, list: readonly T[], n: number) => Array.from({ length: n }, () => list[Math.floor(r() * list.length)]);

/** Member i: even ids are women looking for men, odd ids men looking for women (so halves pair). */
function benchMember(i: number): Member {
  const r = rng(i + 1);
  const woman = i % 2 === 0;
  const profile = compileProfile(
    { age: 20 + Math.floor(r() * 30), genderIdentity: woman ? 'woman' : 'man', sexualOrientation: 'straight', relationshipType: ['dating'], interests: pick(r, INTERESTS, 4), location: 'Austin, TX' },
    { lookingForGenders: [woman ? 'man' : 'woman'], ageRangeMin: 18, ageRangeMax: 99, rolePreferences: pick(r, ROLES, 1), sexualActivities: pick(r, ACTIVITIES, 3), experienceLevel: 'intermediate' },
  );
  return { userId: `u${i}`, displayName: `Member ${i}`, profile, blocked: new Set() };
}

const benchDirectory: MemberDirectory = {
  async admit(token, userId) {
    const match = token && /^tok-(\d+)$/.exec(token);
    if (!match) return { ok: false, status: '401 Unauthorized', reason: 'Unauthorized' };
    if (userId !== `u${match[1]}`) return { ok: false, status: '403 Forbidden', reason: 'Forbidden' };
    return { ok: true, member: benchMember(Number(match[1])), refusal: null };
  },
  load: async () => null,
};

// ---------- child roles: the realtime service, or the bare echo baseline ----------

async function serveRole(role: string) {
  let port: number;
  if (role === 'realtime') {
    const { startRealtimeServer } = await import('../../realtime/server');
    port = (await startRealtimeServer({ port: 0, directory: benchDirectory })).port;
  } else {
    const uWS = (await import('uWebSockets.js')).default;
    const app = uWS.App();
    app.ws('/*', { maxPayloadLength: 128 * 1024, idleTimeout: 120, message: (ws, message, isBinary) => void ws.send(message, isBinary) });
    port = await new Promise<number>((resolve) => app.listen('127.0.0.1', 0, (s) => resolve(uWS.us_socket_local_port(s))));
  }
  process.on('message', (m: string) => {
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
  rss(): Promise<number>;
}

function startChild(role: string): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', __filename], { env: { ...process.env, CHAT_BENCH_ROLE: role }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m: { port: number }) =>
      resolve({
        process: child,
        port: m.port,
        rss: () =>
          new Promise((done) => {
            child.once('message', (r: { rss: number }) => done(r.rss));
            child.send('rss');
          }),
      }),
    );
  });
}

// ---------- the client ----------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function openSockets(port: number, n: number, path: (i: number) => string, headers: (i: number) => Record<string, string>, onMessage: (i: number, data: WebSocket.RawData) => void) {
  const sockets: WebSocket[] = new Array(n);
  const batch = 500;
  for (let start = 0; start < n; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, n - start) }, (_, k) => {
        const i = start + k;
        return new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}${path(i)}`, { headers: headers(i), perMessageDeflate: false });
          ws.on('message', (data) => onMessage(i, data));
          ws.once('open', () => resolve());
          ws.once('error', reject);
          sockets[i] = ws;
        });
      }),
    );
  }
  return sockets;
}

async function benchMatcher() {
  const waiting = 10_000;
  let id = 0;
  const m = new Matcher({ newSessionId: () => `s${id}` });
  const members = Array.from({ length: 40_000 }, (_, i) => benchMember(i));
  // Pool: women (even ids); joiners: men (odd ids). Each match takes one woman; top the pool up.
  let nextWoman = 0;
  const addWoman = () => {
    const w = members[(nextWoman++ * 2) % members.length];
    m.join({ ...w, userId: `w${nextWoman}` }, compileRequest(w, 'standard'), 0);
  };
  for (let i = 0; i < waiting; i++) addWoman();
  let matches = 0;
  const joins = 100_000;
  const t0 = performance.now();
  for (let j = 0; j < joins; j++) {
    const man = members[(j * 2 + 1) % members.length];
    const effects = m.join({ ...man, userId: `m${j}` }, compileRequest(man, 'standard'), 0);
    if (effects.some((e) => e.type === 'matched')) {
      matches++;
      m.leave(`m${j}`, 'left', 0); // session over; the woman is re-queued: take her out, add a fresh one
      const last = effects.find((e) => e.type === 'matched');
      if (last?.type === 'matched') m.leave(last.session.user1.userId, 'left', 0);
      addWoman();
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return { waiting, joins, matches, perSecond: Math.round(matches / seconds), stats: m.stats() };
}

async function benchRealtime(n: number, relayPerPair: number) {
  const server = await startChild('realtime');
  const rssBefore = await server.rss();
  const connected = new Set<number>();
  const joinedAt = new Float64Array(n);
  const latencies: number[] = [];
  const sessionOf = new Map<number, string>();
  let relayed = 0;
  let firstMatch = 0;
  let lastMatch = 0;
  let onRelayDone: (() => void) | null = null;
  const relayTarget = (n / 2) * relayPerPair;
  const t0 = performance.now();
  const sockets = await openSockets(
    server.port,
    n,
    (i) => `/ws/chat?userId=u${i}`,
    (i) => ({ Cookie: `lively.sid=tok-${i}` }),
    (i, data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'connected') connected.add(i);
      else if (message.type === 'matched') {
        const now = performance.now();
        if (joinedAt[i] && i % 2 === 1) latencies.push(now - joinedAt[i]);
        firstMatch ||= now;
        lastMatch = now;
        sessionOf.set(i, message.sessionId);
      } else if (message.type === 'ice_candidate') {
        if (++relayed === relayTarget) onRelayDone?.();
      }
    },
  );
  while (connected.size < n) await sleep(20);
  const connectSeconds = (performance.now() - t0) / 1000;
  await sleep(1000);
  const rssIdle = await server.rss();

  // Half wait (women), then the other half join as fast as the client can send.
  for (let i = 0; i < n; i += 2) sockets[i].send(JSON.stringify({ type: 'join_queue', mode: 'standard', filters: { ageRange: [18, 65] } }));
  await sleep(1500);
  // Joins go out in small batches so the (single-threaded) client also reads the answers meanwhile.
  const joinStart = performance.now();
  for (let i = 1; i < n; i += 2) {
    joinedAt[i] = performance.now();
    sockets[i].send(JSON.stringify({ type: 'join_queue', mode: 'standard', filters: { ageRange: [18, 65] } }));
    if (i % 100 === 99) await new Promise((r) => setImmediate(r));
  }
  const deadline = performance.now() + 60_000;
  while (latencies.length < n / 2 && performance.now() < deadline) await sleep(10);
  const matched = latencies.length;
  const matchSeconds = (lastMatch - joinStart) / 1000;
  latencies.sort((a, b) => a - b);

  // Relay: every joiner sends `relayPerPair` ice candidates to its partner.
  const relayed0 = performance.now();
  const done = new Promise<void>((resolve) => (onRelayDone = resolve));
  const payload = { candidate: 'candidate:1 1 udp 2122260223 192.168.1.2 54321 typ host generation 0', sdpMid: '0', sdpMLineIndex: 0 };
  for (let k = 0; k < relayPerPair; k++) {
    for (let i = 1; i < n; i += 2) {
      const sessionId = sessionOf.get(i);
      if (sessionId) sockets[i].send(JSON.stringify({ type: 'ice_candidate', sessionId, data: payload }));
    }
    if (k % 5 === 4) await sleep(0);
  }
  await Promise.race([done, sleep(60_000)]);
  const relaySeconds = (performance.now() - relayed0) / 1000;
  for (const ws of sockets) ws.terminate();
  server.process.kill();
  return {
    sockets: n,
    connectSeconds,
    bytesPerIdleSocket: Math.round((rssIdle - rssBefore) / n),
    matched,
    matchesPerSecond: Math.round(matched / matchSeconds),
    firstMatchMs: Math.round(firstMatch - joinStart),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    relayed,
    relayPerSecond: Math.round(relayed / relaySeconds),
  };
}

async function benchEcho(n: number, perSocket: number) {
  const server = await startChild('echo');
  const rssBefore = await server.rss();
  let echoed = 0;
  let onDone: (() => void) | null = null;
  const target = (n / 2) * perSocket;
  const sockets = await openSockets(server.port, n, () => '/echo', () => ({}), () => {
    if (++echoed === target) onDone?.();
  });
  await sleep(1000);
  const rssIdle = await server.rss();
  // Same message count and shape as the relay: half the sockets send, every message comes back once.
  const done = new Promise<void>((resolve) => (onDone = resolve));
  const payload = JSON.stringify({ type: 'ice_candidate', sessionId: '00000000-0000-4000-8000-000000000000', data: { candidate: 'candidate:1 1 udp 2122260223 192.168.1.2 54321 typ host generation 0', sdpMid: '0', sdpMLineIndex: 0 } });
  const t0 = performance.now();
  for (let k = 0; k < perSocket; k++) {
    for (let i = 1; i < n; i += 2) sockets[i].send(payload);
    if (k % 5 === 4) await sleep(0);
  }
  await Promise.race([done, sleep(60_000)]);
  const seconds = (performance.now() - t0) / 1000;
  for (const ws of sockets) ws.terminate();
  server.process.kill();
  return { echoed, perSecond: Math.round(echoed / seconds), bytesPerIdleSocket: Math.round((rssIdle - rssBefore) / n) };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'sockets', 10_000);
  const relay = arg(args, 'relay', 20);
  console.log('Matcher micro-benchmark (in process, standard mode)...');
  const matcher = await benchMatcher();
  console.log(`  ${matcher.waiting} waiting, ${matcher.joins} joins: ${matcher.matches} matches, ${matcher.perSecond} matches/s (target >= 20,000)`);
  if (args.includes('--matcher-only')) return;

  console.log(`Realtime service over real sockets: ${n} authenticated sockets (open-file limit: see ulimit -n)...`);
  const rt = await benchRealtime(n, relay);
  console.log(`  connected ${rt.sockets} sockets in ${rt.connectSeconds.toFixed(1)} s; resident memory per idle socket ${rt.bytesPerIdleSocket} B (target <= 4096)`);
  console.log(`  ${rt.matched} matches (${n / 2} waiting when the joins began): ${rt.matchesPerSecond} matches/s (target >= 5,000); join-to-matched p50 ${rt.p50?.toFixed(1)} ms, p99 ${rt.p99?.toFixed(1)} ms (target p99 < 50 ms)`);
  console.log(`  relay: ${rt.relayed} signalling messages, ${rt.relayPerSecond} msgs/s`);

  console.log(`Baseline: bare uWebSockets.js echo server, same client, ${n} sockets...`);
  const echo = await benchEcho(n, relay);
  console.log(`  echo: ${echo.echoed} messages, ${echo.perSecond} msgs/s; resident memory per idle socket ${echo.bytesPerIdleSocket} B`);
  console.log(`Relay / echo throughput: ${((rt.relayPerSecond / echo.perSecond) * 100).toFixed(0)}% (target >= 50%)`);
}

if (process.env.CHAT_BENCH_ROLE) void serveRole(process.env.CHAT_BENCH_ROLE);
