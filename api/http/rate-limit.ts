import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  /** What is counted: the client IP by default; return null to not count this request. */
  key?: (req: Request) => string | null;
  message: string;
}

/**
 * Fixed-window counters in PostgreSQL, shared by every API process. Over the limit: 429
 * with Retry-After. Counters are not domain state, so they are not events.
 */
export async function hitRateLimit(
  db: Knex,
  key: string,
  rule: Pick<RateLimitRule, 'limit' | 'windowMs'>,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowEnds = new Date(Date.now() + rule.windowMs);
  const result = await db.raw(
    `INSERT INTO rate_limits (key, count, window_ends_at) VALUES (?, 1, ?)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_limits.window_ends_at <= now() THEN 1 ELSE rate_limits.count + 1 END,
       window_ends_at = CASE WHEN rate_limits.window_ends_at <= now() THEN EXCLUDED.window_ends_at ELSE rate_limits.window_ends_at END
     RETURNING count, window_ends_at`,
    // Keys hold client input (emails): stored as a digest, so a NUL byte or a huge value is just another key.
    [createHash('sha256').update(key).digest('hex'), windowEnds],
  );
  const row = result.rows[0];
  const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.window_ends_at).getTime() - Date.now()) / 1000));
  return { allowed: row.count <= rule.limit, retryAfterSeconds };
}

export function rateLimit(db: Knex, rule: RateLimitRule): RequestHandler {
  return async (req, res, next) => {
    const subject = rule.key ? rule.key(req) : (req.ip ?? 'unknown');
    if (subject === null) return next();
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, `${rule.name}:${subject}`, rule);
    if (allowed) return next();
    res.setHeader('Retry-After', String(retryAfterSeconds));
    res.status(429).json({ error: rule.message, code: 'RATE_LIMITED', retryAfterSeconds });
  };
}
