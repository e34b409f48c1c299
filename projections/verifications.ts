import type { Knex } from 'knex';
import type { VerificationState, VerificationStatus } from '../domain/contracts/verification';
import type { RecordedEvent } from '../domain/event-store/port';
import { REMOVED } from '../domain/privacy/personal-data';
import type { IdentityVerificationEvent } from '../domain/verification/events';
import { forgettingAccounts } from './engine/forgetting-accounts';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';

/**
 * The `identity_verifications` read model (issue 20): one row per submission with its state,
 * the provider, who decided and when. The legal name and birth date stay sealed
 * (`sealed_identity`); only the admin route opens them, with the key, for staff.
 */

type Data<T extends IdentityVerificationEvent['type']> = Extract<IdentityVerificationEvent, { type: T }>['data'];

/**
 * The row after one event of its submission: a submission inserts it (a stored one stays), a
 * decision changes a stored one (nothing without it). Object.assign rather than spreads: see
 * `row` in billing-history.ts.
 */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  switch (event.type) {
    case 'IdentityVerificationSubmitted': {
      const d = event.data as Data<'IdentityVerificationSubmitted'>;
      return (
        row ?? {
          id: d.submissionId,
          creator_id: d.creatorId,
          state: 'pending',
          provider: d.provider,
          sealed_identity: d.sealedIdentity,
          submitted_at: d.submittedAt,
          decided_at: null,
          decided_by: null,
          reason: null,
        }
      );
    }
    case 'IdentityVerificationNeedsReview': {
      const d = event.data as Data<'IdentityVerificationNeedsReview'>;
      return row && Object.assign({}, row, { state: 'needs_review', reason: d.reason });
    }
    case 'IdentityVerified': {
      const d = event.data as Data<'IdentityVerified'>;
      return (
        row && Object.assign({}, row, { state: 'verified', decided_at: d.at, decided_by: d.decidedBy, reason: null })
      );
    }
    case 'IdentityVerificationRejected': {
      const d = event.data as Data<'IdentityVerificationRejected'>;
      return (
        row &&
        Object.assign({}, row, { state: 'rejected', decided_at: d.at, decided_by: d.decidedBy, reason: d.reason })
      );
    }
  }
  return row;
}

/** The submission an event concerns; lower case, as PostgreSQL gives a uuid back. */
const submissionOf = (event: RecordedEvent) => (event.data as { submissionId: string }).submissionId.toLowerCase();

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('identity_verifications', (t) => {
    t.uuid('id').primary();
    t.uuid('creator_id').notNullable();
    t.text('state').notNullable();
    t.text('provider').notNullable();
    t.text('sealed_identity').notNullable();
    t.timestamp('submitted_at', { useTz: true }).notNullable();
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.uuid('decided_by').nullable();
    t.text('reason').nullable();
    t.index(['creator_id', 'submitted_at']);
    t.index(['state', 'submitted_at']);
  });
}

export const verificationsProjector: Projector = {
  name: 'identity_verifications',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['identity_verifications'],
  eventTypes: [
    'IdentityVerificationSubmitted',
    'IdentityVerificationNeedsReview',
    'IdentityVerified',
    'IdentityVerificationRejected',
    'AccountDeleted',
  ],
  createTables,
  // Every event but AccountDeleted names its submission: two statements a batch, not one an event
  // (a rebuild's pages of creators signing up held a connection for seconds).
  ...forgettingAccounts(
    rowPerEvent('identity_verifications', 'id', submissionOf, nextRow).applyAll,
    // Issue 23: the sealed identity reads REMOVED (as IdentityVerificationSubmitted replays once the
    // key is gone); the decisions stay for audit.
    (context, userId) =>
      context.table('identity_verifications').where({ creator_id: userId }).update({ sealed_identity: REMOVED }),
  ),
};

// Queries.

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A creator's own status: their newest submission, or not started. */
export async function verificationStatusOf(db: Knex, creatorId: string): Promise<VerificationStatus> {
  const row = await db('identity_verifications')
    .where({ creator_id: creatorId })
    .orderBy('submitted_at', 'desc')
    .first();
  if (!row) return { state: 'not_started', submittedAt: null, decidedAt: null, reason: null };
  return { state: row.state, submittedAt: iso(row.submitted_at), decidedAt: iso(row.decided_at), reason: row.reason };
}

/** Whether the creator's identity is verified (the gate of locked posts, paid messages, payouts). */
export async function identityVerified(db: Knex, creatorId: string): Promise<boolean> {
  return !!(await db('identity_verifications').where({ creator_id: creatorId, state: 'verified' }).first('id'));
}

/** SQL for a creator view's `verified` column, given the creators' user id column. */
export const verifiedColumn = (userIdColumn: string) =>
  `EXISTS (SELECT 1 FROM identity_verifications iv WHERE iv.creator_id = ${userIdColumn} AND iv.state = 'verified')`;

/** Submissions waiting for the provider's answer (the ticker's candidates). */
export async function pendingIdentityVerifications(
  db: Knex,
): Promise<Array<{ creatorId: string; submissionId: string }>> {
  const rows = await db('identity_verifications').where({ state: 'pending' }).select('creator_id', 'id').limit(500);
  return rows.map((row) => ({ creatorId: row.creator_id, submissionId: row.id }));
}

export interface VerificationRecord {
  id: string;
  creatorId: string;
  state: Exclude<VerificationState, 'not_started'>;
  provider: string;
  sealedIdentity: string;
  submittedAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  reason: string | null;
  creatorName: string;
  creatorEmail: string;
  deciderName: string | null;
}

const recordOf = (row: Record<string, any>): VerificationRecord => ({
  id: row.id,
  creatorId: row.creator_id,
  state: row.state,
  provider: row.provider,
  sealedIdentity: row.sealed_identity,
  submittedAt: iso(row.submitted_at)!,
  decidedAt: iso(row.decided_at),
  decidedBy: row.decided_by,
  reason: row.reason,
  creatorName: [row.first_name, row.last_name].filter(Boolean).join(' '),
  creatorEmail: row.email ?? '',
  deciderName: row.decided_by ? [row.decider_first, row.decider_last].filter(Boolean).join(' ') || 'Staff' : null,
});

const withPeople = (db: Knex) =>
  db('identity_verifications as v')
    .leftJoin('users as u', 'u.id', 'v.creator_id')
    .leftJoin('users as s', 's.id', 'v.decided_by')
    .select(
      'v.*',
      'u.first_name',
      'u.last_name',
      'u.email',
      's.first_name as decider_first',
      's.last_name as decider_last',
    );

export async function findVerification(db: Knex, id: string): Promise<VerificationRecord | null> {
  const row = await withPeople(db).where('v.id', id).first();
  return row ? recordOf(row) : null;
}

const encodeCursor = (record: VerificationRecord) =>
  Buffer.from(`${record.submittedAt}|${record.id}`).toString('base64url');

/** A cursor's position, or null when it is not one of ours. */
export function decodeVerificationCursor(cursor: string): { at: string; id: string } | null {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(Date.parse(at))) return null;
  return { at, id };
}

/** Staff's list, newest first, optionally of one state. */
export async function verificationsPage(
  db: Knex,
  options: { state?: string; cursor: { at: string; id: string } | null; limit: number },
): Promise<{ items: VerificationRecord[]; nextCursor: string | null }> {
  const query = withPeople(db)
    .orderBy([
      { column: 'v.submitted_at', order: 'desc' },
      { column: 'v.id', order: 'desc' },
    ])
    .limit(options.limit + 1);
  if (options.state) query.where('v.state', options.state);
  if (options.cursor)
    query.whereRaw('(v.submitted_at, v.id) < (?::timestamptz, ?::uuid)', [options.cursor.at, options.cursor.id]);
  const rows = (await query).map(recordOf);
  const items = rows.slice(0, options.limit);
  return { items, nextCursor: rows.length > options.limit ? encodeCursor(items[items.length - 1]) : null };
}
