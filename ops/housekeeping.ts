import type { Knex } from 'knex';
import type { Ticker } from './tickers';

/**
 * Housekeeping of the tables the API writes itself (not read models, DESIGN §2): expired
 * sessions, ended rate-limit windows, old idempotency answers, stale sign-in throttling rows.
 * Without it they grow with every visitor forever.
 */

export const HOUSEKEEPING_TICK_MS = 10 * 60_000;
/** How long a money command's answer is replayed for its Idempotency-Key (clients retry within minutes). */
export const IDEMPOTENCY_KEY_HOURS = 24;
/** Older than the failure window and a lock together: such counts are as good as none. */
const LOGIN_FAILURE_HOURS = 1;
/** Rows per DELETE: a large backlog is removed in short statements that hold few locks. */
const BATCH = 5_000;

interface Rule {
  table: string;
  /** The condition on one row, with one `?`: the cut-off. */
  expired: string;
  cutoff: Date | Knex.Raw;
}

/**
 * Sessions, rate limits and idempotency keys are stamped by the database's clock (or Date.now),
 * so they are pruned by it; the throttling rows are stamped by the stack's clock (`now`).
 */
function rules(db: Knex, now: Date): Rule[] {
  const hoursBefore = (hours: number) => db.raw(`now() - interval '${hours} hours'`);
  return [
    { table: 'http_sessions', expired: 'expires_at <= ?', cutoff: db.raw('now()') },
    { table: 'rate_limits', expired: 'window_ends_at <= ?', cutoff: db.raw('now()') },
    { table: 'idempotency_keys', expired: 'created_at < ?', cutoff: hoursBefore(IDEMPOTENCY_KEY_HOURS) },
    { table: 'login_devices', expired: 'expires_at <= ?', cutoff: now },
    {
      table: 'login_failures',
      expired: 'updated_at < ?',
      cutoff: new Date(now.getTime() - LOGIN_FAILURE_HOURS * 3_600_000),
    },
  ];
}

async function prune(db: Knex, rule: Rule): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db.raw(
      `DELETE FROM ?? WHERE ctid = ANY(ARRAY(SELECT ctid FROM ?? WHERE ${rule.expired} LIMIT ${BATCH}))`,
      [rule.table, rule.table, rule.cutoff],
    );
    removed += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < BATCH) return removed;
  }
}

/** Removes every expired row; the count removed per table. */
export async function pruneExpired(db: Knex, now: Date): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const rule of rules(db, now)) removed[rule.table] = await prune(db, rule);
  return removed;
}

export const housekeepingTicker: Ticker = {
  name: 'housekeeping',
  intervalMs: HOUSEKEEPING_TICK_MS,
  tick: async ({ db, now }) => void (await pruneExpired(db, now)),
};
