import { createClient } from 'redis';
import type { Logger } from 'pino';

/**
 * The one Redis connection pair a realtime process uses to be part of the shared chat service.
 *
 * Why Redis (and not NATS, or a protocol of our own): one engine gives all three things the
 * cluster needs: pub/sub channels (per-user signalling, the bucket owner's inbox), atomic leases
 * (SET NX PX plus a compare-and-renew script: exactly one matcher owner per bucket) and keys with
 * a TTL (a process that stops renewing its heartbeat is dead once the key expires). NATS has the
 * subjects but leases would need JetStream KV on top; Redis is one small Debian package.
 */
export interface RedisBus {
  /**
   * Queues one line for `channel`: each channel's lines of an event-loop turn go out as one
   * message (lines joined by newlines), so a busy process publishes once per turn, not per message.
   */
  send(channel: string, line: string): void;
  /** Publishes one message now (announcements). */
  publish(channel: string, message: string): void;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string): Promise<void>;
  /** Sets `key` to `value` for `ttlMs`. */
  beat(key: string, value: string, ttlMs: number): Promise<void>;
  /** Takes the lease when nobody holds it, or renews it when `holder` does; true: `holder` holds it now. */
  lease(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Deletes `key` if `holder` still holds it (a clean shutdown hands a lease over at once). */
  release(key: string, holder: string): Promise<void>;
  /** Sets `key` to `value` for good; what it held before (null: nothing). */
  swap(key: string, value: string): Promise<string | null>;
  /** Which of `keys` exist now. */
  existing(keys: string[]): Promise<Set<string>>;
  del(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Renew if mine, take if free: one atomic step, so two processes never both think they own a bucket. */
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export async function connectRedisBus(url: string, log: Logger): Promise<RedisBus> {
  const commands = createClient({ url });
  // A subscribed connection can only (un)subscribe: publishing and leases go on the other one.
  const subscriber = commands.duplicate();
  for (const client of [commands, subscriber])
    client.on('error', (error: Error) => log.error({ err: error, component: 'realtime-cluster' }, 'redis error'));
  await Promise.all([commands.connect(), subscriber.connect()]);
  const failed = (error: unknown) => log.error({ err: error, component: 'realtime-cluster' }, 'redis publish failed');
  const batches = new Map<string, string[]>();
  const flush = () => {
    for (const [channel, lines] of batches) void commands.publish(channel, lines.join('\n')).catch(failed);
    batches.clear();
  };
  return {
    publish: (channel, message) => void commands.publish(channel, message).catch(failed),
    send(channel, line) {
      const batch = batches.get(channel);
      if (batch) return void batch.push(line);
      if (batches.size === 0) setImmediate(flush);
      batches.set(channel, [line]);
    },
    subscribe: (channel, listener) => subscriber.subscribe(channel, listener),
    unsubscribe: (channel) => subscriber.unsubscribe(channel),
    beat: async (key, value, ttlMs) =>
      void (await commands.set(key, value, { expiration: { type: 'PX', value: ttlMs } })),
    lease: async (key, holder, ttlMs) =>
      (await commands.eval(LEASE, { keys: [key], arguments: [holder, String(ttlMs)] })) === 1,
    release: async (key, holder) => void (await commands.eval(RELEASE, { keys: [key], arguments: [holder] })),
    swap: async (key, value) => (await commands.set(key, value, { GET: true })) as string | null,
    existing: async (keys) => {
      if (keys.length === 0) return new Set();
      const values = await commands.mGet(keys);
      return new Set(keys.filter((_, i) => values[i] !== null));
    },
    del: async (key) => void (await commands.del(key)),
    async close() {
      flush();
      await Promise.allSettled([subscriber.close(), commands.close()]);
    },
  };
}
