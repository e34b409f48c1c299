import { CHAT_RATE_LIMITS, type ChatRateLimits } from '../realtime/rate-limits';
import type { AutoSuspendPolicy } from '../domain/safety/commands';

/** Configuration from the environment; every variable is documented in the README. */
export interface Config {
  port: number;
  host: string;
  realtimePort: number;
  /** PostgreSQL for the event log and read models; unset: embedded PostgreSQL in dataDir. */
  databaseUrl: string | null;
  embeddedPostgresPort: number;
  dataDir: string;
  eventStoreConnectionString: string | null;
  allowedOrigins: string[];
  trustProxy: boolean;
  logLevel: string;
  /** GET /metrics on its own port (null: METRICS_PORT=off), on metricsHost (loopback by default). */
  metricsPort: number | null;
  metricsHost: string;
  /** With it, GET /metrics also answers on PORT to `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Redis of the chat service shared by several processes (realtime/cluster.ts); null: this process alone. */
  redisUrl: string | null;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
    throw new Error(`${name} must be a port number, got "${value}"`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    realtimePort: integer(env.REALTIME_PORT, 3001, 'REALTIME_PORT'),
    databaseUrl: env.DATABASE_URL || null,
    embeddedPostgresPort: integer(env.EMBEDDED_POSTGRES_PORT, 5433, 'EMBEDDED_POSTGRES_PORT'),
    dataDir: env.LIVELY_DATA_DIR || '.data',
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || null,
    allowedOrigins: (env.PUBLIC_ORIGIN ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL || 'info',
    metricsPort: env.METRICS_PORT === 'off' ? null : integer(env.METRICS_PORT, 9464, 'METRICS_PORT'),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsToken: env.METRICS_TOKEN || null,
    redisUrl: env.REDIS_URL || null,
  };
}

/** Where media objects live: S3-compatible storage when S3_BUCKET is set, else the filesystem. */
export type MediaStorageConfig =
  | { kind: 'filesystem'; rootDir: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string };
      forcePathStyle: boolean;
    };

export function mediaStorageConfig(env: NodeJS.ProcessEnv = process.env): MediaStorageConfig {
  const dataDir = env.LIVELY_DATA_DIR || '.data';
  if (!env.S3_BUCKET) return { kind: 'filesystem', rootDir: `${dataDir}/media` };
  if (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)
    throw new Error('S3_BUCKET is set: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are needed too');
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || 'us-east-1',
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    // Most S3-compatible servers (MinIO, Ceph, s3rver) want path-style URLs; AWS wants virtual hosts.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : Boolean(env.S3_ENDPOINT),
  };
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Automatic protection: reports from REPORTS_AUTO_SUSPEND_COUNT distinct members (default 3)
 * within REPORTS_AUTO_SUSPEND_WINDOW (default 24h; a number with s, m, h or d) suspend the
 * account pending review.
 */
export function autoSuspendPolicy(env: NodeJS.ProcessEnv = process.env): AutoSuspendPolicy {
  const count = env.REPORTS_AUTO_SUSPEND_COUNT ? Number(env.REPORTS_AUTO_SUSPEND_COUNT) : 3;
  if (!Number.isInteger(count) || count < 1 || count > 1000)
    throw new Error(
      `REPORTS_AUTO_SUSPEND_COUNT must be a whole number from 1 to 1000, got "${env.REPORTS_AUTO_SUSPEND_COUNT}"`,
    );
  const window = /^(\d{1,6})(s|m|h|d)$/.exec(env.REPORTS_AUTO_SUSPEND_WINDOW || '24h');
  if (!window || Number(window[1]) === 0)
    throw new Error(
      `REPORTS_AUTO_SUSPEND_WINDOW must be a duration such as 30m, 24h or 7d, got "${env.REPORTS_AUTO_SUSPEND_WINDOW}"`,
    );
  return { count, windowMs: Number(window[1]) * DURATION_UNITS_MS[window[2]] };
}

/** Chat joins and skips per member per minute: CHAT_JOINS_PER_MINUTE and CHAT_SKIPS_PER_MINUTE (default 30 and 60). */
export function chatRateLimits(env: NodeJS.ProcessEnv = process.env): ChatRateLimits {
  const perMinute = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1)
      throw new Error(`${name} must be a whole number above 0, got "${value}"`);
    return parsed;
  };
  return {
    joinsPerMinute: perMinute('CHAT_JOINS_PER_MINUTE', CHAT_RATE_LIMITS.joinsPerMinute),
    skipsPerMinute: perMinute('CHAT_SKIPS_PER_MINUTE', CHAT_RATE_LIMITS.skipsPerMinute),
  };
}
