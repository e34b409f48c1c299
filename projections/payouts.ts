import type { Knex } from 'knex';
import type { AdminPayoutRow } from '../domain/contracts/admin';
import { isoOrNull, type AdminTable } from './admin-tables';
import type { PayoutView } from '../domain/contracts/payouts';
import { formatCents } from '../domain/contracts/money';
import { PAYOUT_HELD_REASON } from '../domain/contracts/safety';
import type { RecordedEvent } from '../domain/event-store/port';
import type {
  PayoutCancelledData,
  PayoutCompletedData,
  PayoutFailedData,
  PayoutProcessingStartedData,
  PayoutRequestedData,
} from '../domain/payouts/events';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';
import type { PageRead, PageStatement } from './page-reads';

/**
 * The `payouts` read model (SPEC §3 payouts): one row per payout with its current state,
 * for the creator's history and the finance console. Every handler sets absolute values.
 */

/**
 * The payout's row after one of its events: a request inserts it (a stored one stays), every
 * later event sets absolute values on a stored one (nothing without it). Object.assign rather
 * than spreads: see `row` in billing-history.ts.
 */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  if (event.type === 'PayoutRequested') {
    const d = event.data as PayoutRequestedData;
    return row ?? requestedRow(d, event.streamId);
  }
  const changes = CHANGES[event.type]?.(event.data);
  return row && changes && Object.assign({}, row, changes);
}

function requestedRow(d: PayoutRequestedData, streamId: string): Row {
  return {
    id: d.payoutId,
    creator_id: d.creatorId,
    payment_account_id: d.paymentAccountId,
    amount_cents: d.amountCents,
    processing_fee_cents: d.processingFeeCents,
    net_amount_cents: d.netAmountCents,
    currency: d.currency,
    status: 'pending',
    gateway_transaction_id: null,
    failure_reason: null,
    processed_at: null,
    staff_id: null,
    stream_id: streamId,
    created_at: d.requestedAt,
    updated_at: d.requestedAt,
  };
}

/** What each later event of a payout sets. */
const CHANGES: Record<string, (data: unknown) => Row> = {
  PayoutProcessingStarted: (data) => {
    const d = data as PayoutProcessingStartedData;
    return {
      status: 'processing',
      gateway_transaction_id: d.gatewayTransactionId,
      staff_id: d.staffId,
      updated_at: d.startedAt,
    };
  },
  PayoutCompleted: (data) => {
    const d = data as PayoutCompletedData;
    return { status: 'completed', processed_at: d.processedAt, staff_id: d.staffId, updated_at: d.processedAt };
  },
  PayoutFailed: (data) => {
    const d = data as PayoutFailedData;
    return {
      status: 'failed',
      failure_reason: d.reason,
      processed_at: d.failedAt,
      staff_id: d.staffId,
      updated_at: d.failedAt,
    };
  },
  PayoutCancelled: (data) => {
    const d = data as PayoutCancelledData;
    return {
      status: 'cancelled',
      failure_reason: d.reason,
      processed_at: d.cancelledAt,
      staff_id: d.staffId,
      updated_at: d.cancelledAt,
    };
  },
};

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('payouts', (t) => {
    t.text('id').primary();
    t.text('creator_id').notNullable().index();
    t.text('payment_account_id').notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.bigInteger('processing_fee_cents').notNullable();
    t.bigInteger('net_amount_cents').notNullable();
    t.text('currency').notNullable();
    t.text('status').notNullable().index();
    t.text('gateway_transaction_id').nullable();
    t.text('failure_reason').nullable();
    t.timestamp('processed_at', { useTz: true }).nullable();
    /** The staff member who moved it last. */
    t.text('staff_id').nullable();
    t.text('stream_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().index();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export const payoutsProjector: Projector = {
  name: 'payouts',
  version: 1,
  tables: ['payouts'],
  eventTypes: ['PayoutRequested', ...Object.keys(CHANGES)],
  createTables,
  // Every event names its payout: two statements a batch, not one an event.
  ...rowPerEvent('payouts', 'id', (event) => (event.data as { payoutId: string }).payoutId, nextRow),
};

// Queries: a creator's payout history and one payout, as the creator sees them.

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function payoutView(row: Record<string, any>): PayoutView {
  return {
    id: row.id,
    creatorId: row.creator_id,
    paymentAccountId: row.payment_account_id,
    amount: formatCents(row.amount_cents),
    processingFee: formatCents(row.processing_fee_cents),
    netAmount: formatCents(row.net_amount_cents),
    currency: 'USD',
    status: row.status,
    gatewayTransactionId: row.gateway_transaction_id,
    failureReason: row.failure_reason,
    processedAt: iso(row.processed_at),
    createdAt: iso(row.created_at)!,
  };
}

/** A creator's (`$2`; not `$1`: staff read them too) payouts, newest first. */
const CREATOR_PAYOUTS: PageStatement = {
  name: 'creator-payouts',
  text: `SELECT id, creator_id, payment_account_id, amount_cents, processing_fee_cents, net_amount_cents,
    status, gateway_transaction_id, failure_reason, processed_at, created_at
  FROM payouts WHERE creator_id = $2 ORDER BY created_at DESC, id DESC`,
};

/** A creator's payouts, newest first (a page statement: the payouts page asks on every load). */
export async function payoutsOfCreator(read: PageRead, creatorId: string): Promise<PayoutView[]> {
  return (await read<Record<string, any>>(CREATOR_PAYOUTS, [creatorId])).map(payoutView);
}

/** One payout's row (null when unknown): who it belongs to, for commands on it. */
export async function findPayoutRow(
  db: Knex,
  payoutId: string,
): Promise<{ id: string; creator_id: string; [column: string]: unknown } | null> {
  return (await db('payouts').where({ id: payoutId }).first()) ?? null;
}

export async function findPayout(db: Knex, payoutId: string): Promise<PayoutView | null> {
  const row = await findPayoutRow(db, payoutId);
  return row ? payoutView(row) : null;
}

/** A creator's payouts as recorded, by id: status and amount in cents (reconciliation). */
export async function payoutStatesOfCreator(
  db: Knex,
  creatorId: string,
): Promise<Map<string, { status: string; amountCents: number }>> {
  const rows = await db('payouts').where({ creator_id: creatorId }).select('id', 'status', 'amount_cents');
  return new Map(rows.map((row) => [row.id, { status: row.status, amountCents: Number(row.amount_cents) }]));
}

/** A banned creator's payouts in these states are held (trust and safety). */
const UNPAID = ['pending', 'processing'];

/** The finance console's table of this read model (see admin-tables.ts). */
export const payoutsAdminTable: AdminTable<AdminPayoutRow> = {
  base: (db) =>
    db('payouts as p')
      .joinRaw('left join users u on u.id::text = p.creator_id')
      .select('p.*', 'u.email as user_email', 'u.standing as creator_standing'),
  id: 'p.id',
  created: 'p.created_at',
  amount: 'p.amount_cents',
  status: 'p.status',
  users: ['p.creator_id'],
  sort: {
    createdAt: 'p.created_at',
    amount: 'p.amount_cents',
    netAmount: 'p.net_amount_cents',
    status: 'p.status',
    processedAt: 'p.processed_at',
    creatorId: 'p.creator_id',
  },
  defaultSort: 'createdAt',
  view: (row) => ({
    id: row.id,
    creatorId: row.creator_id,
    creatorEmail: row.user_email ?? null,
    paymentAccountId: row.payment_account_id,
    amount: formatCents(row.amount_cents),
    processingFee: formatCents(row.processing_fee_cents),
    netAmount: formatCents(row.net_amount_cents),
    status: row.status,
    gatewayTransactionId: row.gateway_transaction_id,
    failureReason: row.failure_reason,
    staffId: row.staff_id,
    processedAt: isoOrNull(row.processed_at),
    createdAt: isoOrNull(row.created_at)!,
    streamId: row.stream_id,
    heldReason: row.creator_standing === 'banned' && UNPAID.includes(row.status) ? PAYOUT_HELD_REASON : null,
  }),
  csv: [
    ['id', (r) => r.id],
    ['createdAt', (r) => r.createdAt],
    ['creatorId', (r) => r.creatorId],
    ['creatorEmail', (r) => r.creatorEmail],
    ['amount', (r) => r.amount],
    ['processingFee', (r) => r.processingFee],
    ['netAmount', (r) => r.netAmount],
    ['currency', () => 'USD'],
    ['status', (r) => r.status],
    ['paymentAccountId', (r) => r.paymentAccountId],
    ['gatewayTransactionId', (r) => r.gatewayTransactionId],
    ['failureReason', (r) => r.failureReason],
    ['staffId', (r) => r.staffId],
    ['processedAt', (r) => r.processedAt],
  ],
};
