import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type EventMetadata,
  type ReadAllOptions,
  type RecordedEvent,
} from './port';
import { AppendSignal } from './append-signal';
import { subscriptionFrom } from './follow';
import { GroupCommit, type QueuedAppend } from './group-commit';

const CHANNEL = 'lively_events';
const UNIQUE_VIOLATION = '23505';
/** Other processes hear of new events this much later at most; local followers on the next turn of the event loop. */
const NOTIFY_INTERVAL_MS = 5;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS events (
  global_position bigserial NOT NULL,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_position bigint NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The global order is the key: one index serves reads in order and uniqueness.
  CONSTRAINT events_global_order PRIMARY KEY (transaction_id, global_position),
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  CONSTRAINT events_stream_key UNIQUE (stream_id, stream_position)
);
-- Every index is paid for on each append: no more than these three (type filters ride on the
-- global order).
`;

/**
 * One statement appends a batch: it reads the stream's revision, checks the expectation and
 * inserts, so an append is one round trip. Two writers racing for the same revision collide
 * on events_stream_key, which is the optimistic-concurrency conflict.
 */
const APPEND_SQL = `
WITH current AS (
  SELECT coalesce(max(stream_position), -1) AS revision FROM events WHERE stream_id = $1
), checked AS (
  SELECT revision FROM current
  WHERE CASE $2::text
    WHEN 'any' THEN true
    WHEN 'no_stream' THEN revision = -1
    WHEN 'stream_exists' THEN revision >= 0
    ELSE revision = $3::bigint
  END
)
INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
SELECT $1, checked.revision + e.ord, (e.value->>'eventId')::uuid, e.value->>'type', e.value->'data', e.value->'metadata'
FROM checked, jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(value, ord)
RETURNING transaction_id::text AS commit, global_position::text AS prepare, stream_position::text AS revision`;

/**
 * Single-event appends, grouped (see group-commit.ts): one row per append, each with its own
 * expectation. Rows whose expectation fails are filtered out; rows that collide with a
 * concurrent writer's (same stream revision) or reuse an event id are skipped, not fatal, so
 * one append's conflict never fails its neighbours. Prepared once per connection.
 */
const APPEND_GROUP_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS i(ord int, stream_id text, mode text, exact bigint, event_id uuid, event_type text, data jsonb, metadata jsonb)
), current AS (
  SELECT input.*, (SELECT coalesce(max(e.stream_position), -1) FROM events e WHERE e.stream_id = input.stream_id) AS revision
  FROM input
)
INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
SELECT stream_id, revision + 1, event_id, event_type, data, metadata
FROM current
WHERE CASE mode
  WHEN 'any' THEN true
  WHEN 'no_stream' THEN revision = -1
  WHEN 'stream_exists' THEN revision >= 0
  ELSE revision = exact
END
ORDER BY ord
ON CONFLICT DO NOTHING
RETURNING event_id::text, transaction_id::text AS commit, global_position::text AS prepare, stream_position::text AS revision`;

interface PendingAppend extends QueuedAppend<AppendResult> {
  eventId: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  expected: ExpectedRevision;
}

// With the whole metadata, or the columns of some of its keys (see readAll), before created_at,
// which PostgreSQL formats as ISO 8601: parsing a Date per row was a third of read-all's cost.
// Rows come back as arrays in this order: a row object per event cost ~20% more to build. The
// aliases keep ORDER BY on the stored columns (an output column's name would win: text order).
const eventColumns = (metadata: string[] = ['metadata']) =>
  [
    'event_id, stream_id, stream_position::text AS revision, transaction_id::text AS commit, global_position::text AS prepare, event_type, data',
    ...metadata,
    `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`,
  ].join(', ');
const SELECT_COLUMNS = eventColumns();

/** event_id, stream_id, revision, commit, prepare, event_type, data, metadata column(s), created_at. */
type EventRow = unknown[];
const FIRST_METADATA_COLUMN = 7;

function appendResult(row: { revision: string; commit: string; prepare: string }): AppendResult {
  return {
    nextExpectedRevision: BigInt(row.revision),
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
  };
}

/** The metadata keys read as columns; an absent key stays absent. */
function pickedMetadata(row: EventRow, keys: readonly string[]): EventMetadata {
  const metadata: EventMetadata = {};
  for (let i = 0; i < keys.length; i++) {
    const value = row[FIRST_METADATA_COLUMN + i];
    if (value !== null && value !== undefined) metadata[keys[i]] = value;
  }
  return metadata;
}

function toRecorded(row: EventRow, metadata: EventMetadata): RecordedEvent {
  return {
    eventId: row[0] as string,
    streamId: row[1] as string,
    revision: BigInt(row[2] as string),
    position: { commit: BigInt(row[3] as string), prepare: BigInt(row[4] as string) },
    type: row[5] as string,
    data: row[6],
    metadata,
    createdAt: row[row.length - 1] as string,
  };
}

export interface PostgresEventStoreOptions {
  connectionString: string;
  poolSize?: number;
  /**
   * Grouped appends in flight at once (default 2: one is written while the next is prepared).
   * More makes groups smaller and costs the server more per event; the pool serves reads too.
   */
  maxConcurrentCommits?: number;
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private listener: PoolClient | null = null;
  private listening: Promise<void> | null = null;
  private readonly appended = new AppendSignal(() => this.listener !== null);
  private notifyScheduled = false;
  private wakeScheduled = false;
  private closed = false;
  private readonly groupCommit: GroupCommit<PendingAppend, AppendResult>;

  constructor(options: PostgresEventStoreOptions) {
    const poolSize = options.poolSize ?? 10;
    const config: PoolConfig = { connectionString: options.connectionString, max: poolSize };
    this.pool = new Pool(config);
    this.pool.on('error', () => undefined); // an idle client dropped by the server is replaced on next use
    this.groupCommit = new GroupCommit((group) => this.commitGroup(group), {
      maxInFlight: Math.min(options.maxConcurrentCommits ?? 2, poolSize),
      maxGroup: 500,
    });
  }

  /** Creates the event log if missing; safe to run on every start. */
  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      // Serialises concurrent first starts (several processes on one new database).
      await client.query('SELECT pg_advisory_lock(7466723)');
      await client.query(SCHEMA_SQL);
    } finally {
      await client.query('SELECT pg_advisory_unlock(7466723)').catch(() => undefined);
      client.release();
    }
  }

  async append(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expected = options.expectedRevision;
    if (events.length === 1) {
      const [event] = events;
      return new Promise((resolve, reject) =>
        this.groupCommit.submit({
          streamId,
          eventId: event.eventId ?? randomUUID(),
          type: event.type,
          data: event.data ?? null,
          metadata: event.metadata ?? {},
          expected,
          resolve,
          reject,
        }),
      );
    }
    const payload = events.map((event) => ({
      eventId: event.eventId ?? randomUUID(),
      type: event.type,
      data: event.data ?? null,
      metadata: event.metadata ?? {},
    }));
    const mode = typeof expected === 'bigint' ? 'exact' : expected;
    const exact = typeof expected === 'bigint' ? expected.toString() : null;
    try {
      const result = await this.pool.query({
        name: 'lively_append',
        text: APPEND_SQL,
        values: [streamId, mode, exact, JSON.stringify(payload)],
      });
      if (result.rowCount === 0) return await this.afterRejectedAppend(streamId, payload, expected);
      this.announceAppend();
      return appendResult(result.rows[result.rows.length - 1]);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      if ((error as { constraint?: string }).constraint === 'events_event_id_key') {
        return this.afterRejectedAppend(streamId, payload, expected);
      }
      if (expected === 'any')
        return this.append(
          streamId,
          events.map((e, i) => ({ ...e, eventId: payload[i].eventId })),
          options,
        );
      return this.afterRejectedAppend(streamId, payload, expected);
    }
  }

  /** Writes a group of single-event appends in one statement, then settles each of them. */
  private async commitGroup(group: PendingAppend[]): Promise<void> {
    const rows = group.map(({ streamId, expected, eventId, type, data, metadata }, ord) => ({
      ord,
      stream_id: streamId,
      mode: typeof expected === 'bigint' ? 'exact' : expected,
      exact: typeof expected === 'bigint' ? expected.toString() : null,
      event_id: eventId,
      event_type: type,
      data,
      metadata,
    }));
    let result;
    try {
      result = await this.pool.query<{ event_id: string; commit: string; prepare: string; revision: string }>({
        name: 'lively_append_group',
        text: APPEND_GROUP_SQL,
        values: [JSON.stringify(rows)],
      });
    } catch (error) {
      if (group.length === 1) throw error;
      // One append the server refuses (say, text it cannot store) must not fail its neighbours.
      await Promise.all(group.map((item) => this.commitGroup([item]).catch(item.reject)));
      return;
    }
    if (result.rows.length > 0) this.announceAppend();
    const written = new Map(result.rows.map((row) => [row.event_id, row]));
    for (const item of group) {
      const row = written.get(item.eventId);
      if (row) item.resolve(appendResult(row));
      else this.settleRejected(item);
    }
  }

  /** An append of a group that wrote nothing: a retry, a conflict, or (expecting any) a lost race to retry. */
  private settleRejected(item: PendingAppend): void {
    this.afterRejectedAppend(item.streamId, [item], item.expected).then(item.resolve, (error: unknown) => {
      if (item.expected === 'any' && error instanceof WrongExpectedRevisionError) this.groupCommit.submit(item);
      else item.reject(error);
    });
  }

  /**
   * An append that wrote nothing is either a retry of one already written (same event ids in
   * the same stream: answer as the first time did) or a concurrency conflict.
   */
  private async afterRejectedAppend(
    streamId: string,
    payload: { eventId: string }[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const ids = payload.map((event) => event.eventId);
    const existing = await this.pool.query<{ stream_id: string; revision: string; commit: string; prepare: string }>(
      `SELECT stream_id, stream_position::text AS revision, transaction_id::text AS commit, global_position::text AS prepare
         FROM events WHERE event_id = ANY($1::uuid[]) ORDER BY stream_position`,
      [ids],
    );
    if (existing.rowCount === ids.length && existing.rows.every((row) => row.stream_id === streamId)) {
      return appendResult(existing.rows[existing.rows.length - 1]);
    }
    if ((existing.rowCount ?? 0) > 0) throw new Error(`Event id already used by another append (stream ${streamId})`);
    const actual = await this.currentRevision(streamId);
    throw new WrongExpectedRevisionError(streamId, expected, actual);
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const result = await this.pool.query<{ revision: string | null }>(
      'SELECT max(stream_position)::text AS revision FROM events WHERE stream_id = $1',
      [streamId],
    );
    const revision = result.rows[0].revision;
    return revision === null ? 'no_stream' : BigInt(revision);
  }

  async readStream(streamId: string, options: { fromRevision?: bigint } = {}): Promise<RecordedEvent[]> {
    const result = await this.pool.query<EventRow>({
      name: 'lively_read_stream',
      text: `SELECT ${SELECT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_position >= $2 ORDER BY stream_position`,
      values: [streamId, (options.fromRevision ?? 0n).toString()],
      rowMode: 'array',
    });
    return result.rows.map((row) => toRecorded(row, row[FIRST_METADATA_COLUMN] as EventMetadata));
  }

  /**
   * Global order is (transaction id, global position), and only rows written by transactions
   * older than every transaction still open are read: a sequence alone would let a reader skip
   * an event whose transaction commits after a later-numbered one.
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? { commit: 0n, prepare: 0n };
    const values: unknown[] = [after.commit.toString(), after.prepare.toString(), options.maxCount ?? 1000];
    const typed = options.types !== undefined;
    if (typed) values.push(options.types);
    const keys = options.metadataKeys ?? null;
    const firstKey = values.length + 1;
    if (keys) values.push(...keys);
    const columns = keys ? eventColumns(keys.map((_, i) => `metadata -> $${firstKey + i}::text`)) : SELECT_COLUMNS;
    const result = await this.pool.query<EventRow>({
      // One prepared statement per shape of the query.
      name: `lively_read_all${typed ? '_typed' : ''}${keys ? `_m${keys.length}` : ''}`,
      text: `SELECT ${columns} FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          ${typed ? 'AND event_type = ANY($4::text[])' : ''}
        ORDER BY transaction_id, global_position
        LIMIT $3`,
      values,
      rowMode: 'array',
    });
    if (!keys) return result.rows.map((row) => toRecorded(row, row[FIRST_METADATA_COLUMN] as EventMetadata));
    return result.rows.map((row) => toRecorded(row, pickedMetadata(row, keys)));
  }

  subscribeToAll(options: { after?: Position | null } = {}) {
    return subscriptionFrom(this, options.after);
  }

  /**
   * Replaces the data of recorded events, keeping ids, order, types and metadata. Only for the
   * one-time move of personal data to its sealed form (`npm run ops -- migrate-pii`): the values
   * the events decode to stay the same, so no read model changes.
   */
  async rewriteData(events: ReadonlyArray<{ eventId: string; data: unknown }>): Promise<void> {
    if (events.length === 0) return;
    await this.pool.query(
      `UPDATE events SET data = rewritten.data
         FROM unnest($1::uuid[], $2::jsonb[]) AS rewritten(event_id, data)
        WHERE events.event_id = rewritten.event_id`,
      [events.map((e) => e.eventId), events.map((e) => JSON.stringify(e.data))],
    );
  }

  async headPosition(): Promise<Position | null> {
    const result = await this.pool.query<{ commit: string; prepare: string }>(
      `SELECT transaction_id::text AS commit, global_position::text AS prepare FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    const row = result.rows[0];
    return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : null;
  }

  /** How many events the log holds, readable or not yet (an open older transaction hides new ones). */
  async countEvents(): Promise<number> {
    const result = await this.pool.query<{ n: string }>('SELECT count(*)::bigint AS n FROM events');
    return Number(result.rows[0].n);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM events LIMIT 1');
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    void this.ensureListening();
    return this.appended.wait(timeoutMs, signal);
  }

  /**
   * Wakes local followers and, through NOTIFY, other processes. Local followers wake on a timer,
   * the next turn of the event loop, not in the append's own continuation: the appender answers
   * its request first. Woken at once, every projector and process manager of this process (over
   * twenty) would start its read ahead of that answer, and a request that appends (a failed login
   * to an account) would answer later than one that does not (a failed login for an unknown email).
   * One wake covers the appends of one turn. The NOTIFY is sent after the append commits (inside
   * the append it would serialise commits), at most once per NOTIFY_INTERVAL_MS: under load one
   * notification covers many appends.
   */
  private announceAppend(): void {
    if (this.closed) return;
    if (!this.wakeScheduled) {
      this.wakeScheduled = true;
      setTimeout(() => {
        this.wakeScheduled = false;
        this.appended.wake();
      }, 0);
    }
    if (this.notifyScheduled) return;
    this.notifyScheduled = true;
    setTimeout(() => {
      this.notifyScheduled = false;
      if (!this.closed) this.pool.query(`SELECT pg_notify('${CHANNEL}', '')`).catch(() => undefined);
    }, NOTIFY_INTERVAL_MS);
  }

  /** One LISTEN connection per store; when it fails, followers fall back to polling until it is back. */
  private ensureListening(): Promise<void> {
    if (this.listening || this.closed) return this.listening ?? Promise.resolve();
    this.listening = (async () => {
      try {
        const client = await this.pool.connect();
        client.on('notification', () => this.appended.wake());
        client.on('error', () => this.dropListener());
        await client.query(`LISTEN ${CHANNEL}`);
        this.listener = client;
      } catch {
        setTimeout(() => (this.listening = null), 1000);
      }
    })();
    return this.listening;
  }

  private dropListener(): void {
    this.listener?.release(true);
    this.listener = null;
    this.listening = null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.appended.wake();
    await this.listening;
    this.listener?.release(true);
    this.listener = null;
    await this.pool.end();
  }
}
