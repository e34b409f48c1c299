import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import dgram from 'node:dgram';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type { IceServers } from '../domain/contracts/ice-servers';
import { keptSecret, randomSecret } from './kept-secret';

/**
 * Calls that connect everywhere (issue 20): a TURN relay for members behind NATs that STUN alone
 * cannot cross (carrier NAT on phones). Either the launcher runs coturn (`turnserver` on PATH) as
 * a child process, or an external relay is named by TURN_URLS and TURN_SECRET; without either the
 * pages get STUN only. Credentials follow the TURN REST scheme coturn checks with
 * `use-auth-secret`: username `<expiry unix seconds>:<userId>`, password
 * base64(HMAC-SHA1(secret, username)), so nothing per user is stored anywhere.
 */

/** Public STUN servers: what the pages used before (SPEC §7), and the fallback without a relay. */
export const PUBLIC_STUN_URLS = [
  'stun:stun.l.google.com:19302',
  'stun:stun1.l.google.com:19302',
  'stun:stun2.l.google.com:19302',
];
/** coturn's server binary (Debian package `coturn`; a system tool, not an npm binary). */
const COTURN = 'turnserver';
/** Credentials are valid for an hour at most. */
export const TURN_CREDENTIAL_TTL_SECONDS = 3600;

/** The coturn the launcher runs. */
export interface LocalTurnSettings {
  /** The static-auth-secret shared with coturn. */
  secret: string;
  /** Where coturn's config, log and database go (`<LIVELY_DATA_DIR>/turn`). */
  dir: string;
  /** Where coturn listens and relays (loopback by default). */
  listenIp: string;
  /** The address browsers reach it at (coturn's external-ip when it differs from listenIp). */
  externalIp: string | null;
  port: number;
  minPort: number;
  maxPort: number;
  realm: string;
}

export type TurnConfig =
  | { kind: 'local'; settings: LocalTurnSettings; stunUrls: string[] | null }
  | { kind: 'external'; urls: string[]; secret: string; stunUrls: string[] | null }
  /** `reason` is printed once at start (null: nothing to say, e.g. a test stack). */
  | { kind: 'none'; reason: string | null; stunUrls: string[] | null };

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 65535)
    throw new Error(`${name} must be a port number, got "${value}"`);
  return parsed;
}

/** Whether coturn's `turnserver` is on PATH. */
export function turnserverAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return spawnSync(COTURN, ['--version'], { env, stdio: 'ignore' }).status === 0;
}

/**
 * TURN from the environment (README "Calls through a TURN relay"): TURN_URLS + TURN_SECRET name
 * an external relay; else coturn runs when installed (TURN=off turns it off); else STUN only.
 */
export function turnConfig(dataDir: string, env: NodeJS.ProcessEnv = process.env): TurnConfig {
  const stunUrls = list(env.STUN_URLS);
  const stun = stunUrls.length > 0 ? stunUrls : null;
  const urls = list(env.TURN_URLS);
  if (urls.length > 0) {
    if (!env.TURN_SECRET)
      throw new Error('TURN_URLS is set: TURN_SECRET (the relay’s static-auth-secret) is needed too');
    return { kind: 'external', urls, secret: env.TURN_SECRET, stunUrls: stun };
  }
  if (env.TURN === 'off') return { kind: 'none', reason: 'TURN=off: calls use STUN only', stunUrls: stun };
  if (!turnserverAvailable(env))
    return {
      kind: 'none',
      reason:
        'TURN relay off: coturn is not installed (apt-get install coturn) and TURN_URLS is not set; calls use STUN only and may fail behind strict NATs',
      stunUrls: stun,
    };
  const dir = path.resolve(dataDir, 'turn');
  const externalIp = env.TURN_EXTERNAL_IP || null;
  const minPort = port(env, 'TURN_MIN_PORT', 49152);
  const maxPort = port(env, 'TURN_MAX_PORT', 49251);
  if (maxPort < minPort) throw new Error('TURN_MAX_PORT must not be below TURN_MIN_PORT');
  return {
    kind: 'local',
    stunUrls: stun,
    settings: {
      secret: env.TURN_SECRET || turnSecret(dir),
      dir,
      listenIp: env.TURN_LISTEN_IP || externalIp || '127.0.0.1',
      externalIp,
      port: port(env, 'TURN_PORT', 3478),
      minPort,
      maxPort,
      realm: env.TURN_REALM || 'lively',
    },
  };
}

/** The static-auth-secret: generated on first start and kept in the data folder, readable by its owner only. */
export function turnSecret(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 }); // TURN's folder, its config included, is private
  return keptSecret(dir, 'turn-secret', randomSecret);
}

/** TURN REST credentials for one user, valid `ttlSeconds` from `now`. */
export function turnCredential(
  secret: string,
  userId: string,
  now: Date,
  ttlSeconds = TURN_CREDENTIAL_TTL_SECONDS,
): { username: string; credential: string } {
  const username = `${Math.floor(now.getTime() / 1000) + ttlSeconds}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/** What GET /api/chat/ice-servers answers with (the API's `ports.iceServers`). */
export interface IceServerSource {
  forUser(userId: string, now: Date): IceServers;
}

export function iceServerSource(stunUrls: string[], turn: { urls: string[]; secret: string } | null): IceServerSource {
  return {
    forUser(userId, now) {
      const iceServers: IceServers['iceServers'] = [{ urls: stunUrls }];
      if (turn) iceServers.push({ urls: turn.urls, ...turnCredential(turn.secret, userId, now) });
      return { iceServers, ttlSeconds: TURN_CREDENTIAL_TTL_SECONDS };
    },
  };
}

/** The relay's URLs for browsers: UDP first, TCP for networks that let no UDP out. */
export function localTurnUrls(settings: LocalTurnSettings): string[] {
  const host = settings.externalIp ?? settings.listenIp;
  return [`turn:${host}:${settings.port}?transport=udp`, `turn:${host}:${settings.port}?transport=tcp`];
}

const isLoopback = (ip: string) => ip.startsWith('127.') || ip === '::1';

/** coturn's configuration. The log file never holds the secret (coturn logs usernames, not passwords). */
export function coturnConfig(settings: LocalTurnSettings): string {
  const lines = [
    `listening-ip=${settings.listenIp}`,
    `relay-ip=${settings.listenIp}`,
    `listening-port=${settings.port}`,
    `min-port=${settings.minPort}`,
    `max-port=${settings.maxPort}`,
    `realm=${settings.realm}`,
    'use-auth-secret',
    `static-auth-secret=${settings.secret}`,
    'fingerprint',
    'no-cli',
    'no-tls',
    'no-dtls',
    'no-multicast-peers',
    'no-software-attribute',
    'user-quota=12',
    'total-quota=1200',
    'simple-log',
    `log-file=${path.join(settings.dir, 'turnserver.log')}`,
    `pidfile=${path.join(settings.dir, 'turnserver.pid')}`,
    `userdb=${path.join(settings.dir, 'turndb')}`,
  ];
  if (settings.externalIp && settings.externalIp !== settings.listenIp)
    lines.push(`external-ip=${settings.externalIp}/${settings.listenIp}`);
  // On loopback both call ends are this machine (development, the browser test): let it relay to them.
  if (isLoopback(settings.listenIp)) lines.push('allow-loopback-peers');
  return `${lines.join('\n')}\n`;
}

export interface RunningTurn {
  iceServers: IceServerSource;
  stop(): Promise<void>;
}

/**
 * Starts what `config` asks for: coturn as a child process (its config written under the data
 * folder, readable by its owner only), or nothing. A coturn that does not come up is logged and
 * the product goes on with STUN only.
 */
export async function startTurn(config: TurnConfig, logger: Logger): Promise<RunningTurn> {
  const stun = (fallback: string[]) => config.stunUrls ?? fallback;
  if (config.kind === 'external') {
    logger.info({ urls: config.urls }, 'TURN relay: external');
    return { iceServers: iceServerSource(stun(PUBLIC_STUN_URLS), config), stop: async () => undefined };
  }
  if (config.kind === 'none') {
    if (config.reason) logger.warn(config.reason);
    return { iceServers: iceServerSource(stun(PUBLIC_STUN_URLS), null), stop: async () => undefined };
  }
  const { settings } = config;
  const host = settings.externalIp ?? settings.listenIp;
  try {
    const child = await startCoturn(settings);
    logger.info({ port: settings.port, host, log: path.join(settings.dir, 'turnserver.log') }, 'TURN relay: coturn');
    return {
      iceServers: iceServerSource(stun([`stun:${host}:${settings.port}`]), {
        urls: localTurnUrls(settings),
        secret: settings.secret,
      }),
      stop: () => stopChild(child),
    };
  } catch (error) {
    logger.warn({ err: error }, 'TURN relay off: coturn did not start; calls use STUN only');
    return { iceServers: iceServerSource(stun(PUBLIC_STUN_URLS), null), stop: async () => undefined };
  }
}

/** Runs `turnserver -c <config>` and waits until it answers on its port over TCP and UDP. */
export async function startCoturn(settings: LocalTurnSettings): Promise<ChildProcess> {
  const configFile = path.join(settings.dir, 'turnserver.conf');
  await stopLeftover(settings.dir, configFile);
  // coturn retries a taken port for ever, and whatever holds it would answer the readiness check.
  if (!(await portFree(settings.listenIp, settings.port)))
    throw new Error(`${settings.listenIp}:${settings.port} is in use (another TURN server? set TURN_PORT)`);
  mkdirSync(settings.dir, { recursive: true, mode: 0o700 });
  writeFileSync(configFile, coturnConfig(settings), { mode: 0o600 });
  const child = spawn(COTURN, ['-c', configFile], { stdio: 'ignore' });
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `coturn exited (${signal ?? code})`));
  child.once('error', (error) => (exited = `coturn did not run: ${error.message}`));
  for (let waited = 0; ; waited += 100) {
    if (exited) throw new Error(exited);
    if ((await accepts(settings.listenIp, settings.port)) && (await answersStun(settings.listenIp, settings.port)))
      return child;
    if (waited >= 10_000) {
      await stopChild(child);
      throw new Error(`coturn did not listen on ${settings.listenIp}:${settings.port} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A coturn left running by a launcher that was killed (its pidfile names it, and it runs our
 * config file): stopped, so this start can take its port.
 */
async function stopLeftover(dir: string, configFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, 'turnserver.pid'), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 1) return;
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(configFile)) return;
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // no pidfile, no such process, or not ours
  }
  for (let waited = 0; waited < 3000; waited += 100) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone just now
  }
}

/** Whether both TCP and UDP `port` can be bound on `host` now. */
async function portFree(host: string, port: number): Promise<boolean> {
  const tcp = await new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
  if (!tcp) return false;
  return new Promise<boolean>((resolve) => {
    const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, host, () => socket.close(() => resolve(true)));
  });
}

/** Whether a STUN Binding request over UDP gets an answer within 200 ms. */
function answersStun(host: string, port: number): Promise<boolean> {
  const request = Buffer.alloc(20);
  request.writeUInt16BE(0x0001, 0); // Binding request, no attributes
  request.writeUInt32BE(0x2112a442, 4); // magic cookie
  randomBytes(12).copy(request, 8);
  return new Promise((resolve) => {
    const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), 200);
    socket.once('message', () => done(true));
    socket.once('error', () => done(false));
    socket.send(request, port, host);
  });
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** SIGTERM, then SIGKILL after 3 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
