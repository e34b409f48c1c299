import { createHash, createHmac, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { freePort } from './net';
import {
  PUBLIC_STUN_URLS,
  coturnConfig,
  iceServerSource,
  startCoturn,
  startTurn,
  turnConfig,
  turnCredential,
  turnSecret,
  turnserverAvailable,
  type LocalTurnSettings,
} from './turn';

const silent = pino({ level: 'silent' });
const made: string[] = [];
const tempDir = () => {
  made.push(mkdtempSync(path.join(os.tmpdir(), 'lively-turn-')));
  return made.at(-1)!;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('TURN REST credentials', () => {
  it('names the expiry and the user and signs them with HMAC-SHA1 of the secret', () => {
    const now = new Date('2027-01-12T10:00:00Z');
    const { username, credential } = turnCredential('s3cret', 'user-1', now);
    expect(username).toBe(`${now.getTime() / 1000 + 3600}:user-1`);
    expect(credential).toBe(createHmac('sha1', 's3cret').update(username).digest('base64'));
    expect(turnCredential('other', 'user-1', now).credential).not.toBe(credential);
  });

  it('answers STUN alone without a relay, STUN and TURN with one', () => {
    const now = new Date('2027-01-12T10:00:00Z');
    expect(iceServerSource(['stun:a:1'], null).forUser('u', now)).toEqual({
      iceServers: [{ urls: ['stun:a:1'] }],
      ttlSeconds: 3600,
    });
    const { iceServers } = iceServerSource(['stun:a:1'], { urls: ['turn:a:1?transport=udp'], secret: 'k' }).forUser(
      'u',
      now,
    );
    expect(iceServers[1]).toEqual({ urls: ['turn:a:1?transport=udp'], ...turnCredential('k', 'u', now) });
  });
});

describe('TURN configuration', () => {
  it('takes an external relay from TURN_URLS and TURN_SECRET, and refuses URLs without a secret', () => {
    expect(
      turnConfig('/nowhere', { TURN_URLS: 'turn:relay.example:3478, turns:relay.example:5349', TURN_SECRET: 'k' }),
    ).toEqual({
      kind: 'external',
      urls: ['turn:relay.example:3478', 'turns:relay.example:5349'],
      secret: 'k',
      stunUrls: null,
    });
    expect(() => turnConfig('/nowhere', { TURN_URLS: 'turn:relay.example:3478' })).toThrow(/TURN_SECRET/);
  });

  it('says in one line why there is no relay when coturn is missing or turned off', () => {
    const none = turnConfig('/nowhere', { PATH: '/nonexistent' });
    expect(none).toMatchObject({ kind: 'none', reason: expect.stringMatching(/coturn is not installed.*STUN only/) });
    expect(turnConfig('/nowhere', { TURN: 'off', PATH: process.env.PATH })).toMatchObject({ kind: 'none' });
  });

  it('keeps a generated secret in the data folder, readable by its owner only', () => {
    const dir = tempDir();
    const secret = turnSecret(dir);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(turnSecret(dir)).toBe(secret);
    expect(statSync(path.join(dir, 'turn-secret')).mode & 0o077).toBe(0);
  });

  it("writes coturn's config with the shared secret, loopback relaying only on loopback, no CLI", () => {
    const settings: LocalTurnSettings = {
      secret: 'k'.repeat(32),
      dir: '/data/turn',
      listenIp: '127.0.0.1',
      externalIp: null,
      port: 3478,
      minPort: 49152,
      maxPort: 49251,
      realm: 'lively',
    };
    const config = coturnConfig(settings).split('\n');
    expect(config).toEqual(
      expect.arrayContaining([
        'use-auth-secret',
        `static-auth-secret=${'k'.repeat(32)}`,
        'no-cli',
        'min-port=49152',
        'max-port=49251',
        'realm=lively',
        'log-file=/data/turn/turnserver.log',
        'allow-loopback-peers',
      ]),
    );
    const public_ = coturnConfig({ ...settings, listenIp: '10.0.0.5', externalIp: '203.0.113.7' });
    expect(public_).toContain('external-ip=203.0.113.7/10.0.0.5');
    expect(public_).not.toContain('allow-loopback-peers');
  });
});

// ---------- a live coturn: an Allocate with our credentials gets a relayed address ----------

const MAGIC = 0x2112a442;
const attr = (type: number, value: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(type, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
};
function stunMessage(type: number, attrs: Buffer[], key?: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(MAGIC, 4);
  randomBytes(12).copy(header, 8);
  let body = Buffer.concat(attrs);
  if (key) {
    // MESSAGE-INTEGRITY covers the message with its length already counting the integrity attribute.
    header.writeUInt16BE(body.length + 24, 2);
    const mac = createHmac('sha1', key)
      .update(Buffer.concat([header, body]))
      .digest();
    body = Buffer.concat([body, attr(0x0008, mac)]);
  }
  header.writeUInt16BE(body.length, 2);
  return Buffer.concat([header, body]);
}
function stunAttributes(message: Buffer): Map<number, Buffer> {
  const attrs = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= message.length;) {
    const type = message.readUInt16BE(at);
    const length = message.readUInt16BE(at + 2);
    attrs.set(type, message.subarray(at + 4, at + 4 + length));
    at += 4 + length + ((4 - (length % 4)) % 4);
  }
  return attrs;
}
function exchange(socket: dgram.Socket, port: number, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer from coturn')), 3000);
    socket.once('message', (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.send(message, port, '127.0.0.1');
  });
}
const TRANSPORT_UDP = attr(0x0019, Buffer.from([17, 0, 0, 0]));

/** A TURN Allocate over UDP with long-term credentials: the error code, or 'allocated'. */
async function allocate(port: number, username: string, password: string, realm: string): Promise<number | string> {
  const socket = dgram.createSocket('udp4');
  try {
    const challenge = stunAttributes(await exchange(socket, port, stunMessage(0x0003, [TRANSPORT_UDP])));
    const nonce = challenge.get(0x0015)!;
    const key = createHash('md5').update(`${username}:${realm}:${password}`).digest();
    const answer = await exchange(
      socket,
      port,
      stunMessage(
        0x0003,
        [TRANSPORT_UDP, attr(0x0006, Buffer.from(username)), attr(0x0014, Buffer.from(realm)), attr(0x0015, nonce)],
        key,
      ),
    );
    if (answer.readUInt16BE(0) === 0x0103) return 'allocated';
    const error = stunAttributes(answer).get(0x0009)!;
    return error[2] * 100 + error[3];
  } finally {
    socket.close();
  }
}

/** Like the browser journeys: without coturn skipped with one loud line, except under CI=true (.ci/run installs it). */
function describeWithCoturn(name: string, body: () => void): void {
  if (turnserverAvailable()) return describe(name, body);
  if (process.env.CI === 'true')
    return void it(`${name}: needs coturn`, () => {
      throw new Error('coturn not found: install Debian coturn (apt-get install -y coturn)');
    });
  console.warn('\n*** LIVE TURN TEST SKIPPED: coturn is not installed (apt-get install -y coturn) ***\n');
  it.skip(name, () => undefined);
}

describeWithCoturn('coturn started by the launcher', () => {
  it('relays for a fresh credential, refuses a forged or expired one, and stops with the product', async () => {
    const dir = tempDir();
    const port = await freePort();
    const minPort = 40_000 + Math.floor(Math.random() * 8000);
    const config = turnConfig(dir, {
      PATH: process.env.PATH,
      TURN_PORT: String(port),
      TURN_MIN_PORT: String(minPort),
      TURN_MAX_PORT: String(minPort + 20),
    });
    expect(config.kind).toBe('local');
    const turn = await startTurn(config, silent);
    try {
      const answer = turn.iceServers.forUser('member-7', new Date());
      expect(answer.iceServers[0]).toEqual({ urls: [`stun:127.0.0.1:${port}`] });
      const relay = answer.iceServers[1]!;
      expect(relay.urls).toEqual([`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`]);
      expect(await allocate(port, relay.username!, relay.credential!, 'lively')).toBe('allocated');
      expect(await allocate(port, relay.username!, 'forged', 'lively')).toBe(401);
      const expired = turnCredential(turnSecret(path.join(dir, 'turn')), 'member-7', new Date(Date.now() - 7200_000));
      expect(await allocate(port, expired.username, expired.credential, 'lively')).toBe(401);
      // The log says what happened without any password or the secret.
      const log = readFileSync(path.join(dir, 'turn', 'turnserver.log'), 'utf8');
      expect(log).not.toContain(relay.credential!);
      expect(log).not.toContain(turnSecret(path.join(dir, 'turn')));
    } finally {
      await turn.stop();
    }
    await expect(allocate(port, 'x', 'y', 'lively')).rejects.toThrow(/no answer/);
  });

  it('stops a coturn left behind by a launcher that died, and takes its port', async () => {
    const port = await freePort();
    const minPort = 40_000 + Math.floor(Math.random() * 8000);
    const config = turnConfig(tempDir(), {
      PATH: process.env.PATH,
      TURN_PORT: String(port),
      TURN_MIN_PORT: String(minPort),
      TURN_MAX_PORT: String(minPort + 20),
    });
    if (config.kind !== 'local') throw new Error('coturn expected');
    const leftover = await startCoturn(config.settings); // never stopped: its launcher was killed
    const gone = new Promise((resolve) => leftover.once('exit', resolve));
    const turn = await startTurn(config, silent);
    try {
      await gone;
      const relay = turn.iceServers.forUser('member-8', new Date()).iceServers[1]!;
      expect(await allocate(port, relay.username!, relay.credential!, 'lively')).toBe('allocated');
    } finally {
      await turn.stop();
    }
  });

  it('goes on with STUN only, saying why, when the TURN port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    try {
      const turn = await startTurn(turnConfig(tempDir(), { PATH: process.env.PATH, TURN_PORT: String(port) }), logger);
      expect(turn.iceServers.forUser('u', new Date()).iceServers).toEqual([{ urls: PUBLIC_STUN_URLS }]);
      expect(warnings.join('')).toContain(`127.0.0.1:${port} is in use`);
      await turn.stop();
    } finally {
      taken.close();
    }
  });
});
