import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import type { CreatorShareReversedData, EarningsCreditedData, EarningsReversedData } from '../domain/payouts/events';
import { insertRuns } from './engine/insert-runs';
import type { Projector } from './engine/projector';
import type { PageRead, PageStatement } from './page-reads';

/**
 * `creator_earnings`: one row per credited sale with its hold end. Balances depend on the
 * clock (pending until available_at), so they are summed at read time (`creatorBalances`),
 * together with what the creator's payouts hold (the `payouts` read model).
 * `creator_share_cuts`: what share reversals took, one row per reversal and part: `pending`
 * (cut from that earning while held), `available` (from the balance, or carried below zero),
 * `share` (the sale's share reversed, less in total earnings).
 */

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('creator_earnings', (t) => {
    t.text('creator_id').notNullable();
    t.text('reference').notNullable();
    t.text('source').notNullable();
    t.text('payer_id').nullable();
    t.bigInteger('gross_cents').notNullable();
    t.bigInteger('creator_share_cents').notNullable();
    t.bigInteger('platform_fee_cents').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('available_at', { useTz: true }).notNullable();
    t.timestamp('reversed_at', { useTz: true }).nullable();
    t.text('event_id').notNullable();
    t.primary(['creator_id', 'reference']);
    t.index(['creator_id', 'available_at']);
  });
  // The dashboard's sums (CREATOR_SUMS) from the index alone, not a heap page per earning.
  await db.raw(
    `CREATE INDEX ON "${schema}"."creator_earnings" (creator_id, available_at) INCLUDE (creator_share_cents) WHERE reversed_at IS NULL`,
  );
  await db.schema.withSchema(schema).createTable('creator_share_cuts', (t) => {
    t.text('creator_id').notNullable();
    t.text('reversal_id').notNullable();
    t.text('reference').notNullable();
    t.text('part').notNullable();
    t.bigInteger('cents').notNullable();
    t.primary(['creator_id', 'reversal_id', 'reference', 'part']);
  });
}

/** The rows a share reversal writes (keyed, so applying it twice writes them once). */
function cutRows(d: CreatorShareReversedData) {
  const row = (reference: string, part: string, cents: number) => ({
    creator_id: d.creatorId,
    reversal_id: d.reversalId,
    reference,
    part,
    cents,
  });
  return [
    row(d.reference, 'share', d.creatorShareCents),
    row(d.reference, 'available', d.fromAvailableCents + d.carriedCents),
    ...d.fromPending.map((cut) => row(cut.reference, 'pending', cut.cents)),
  ];
}

/** The row a credit inserts; null for a reversal. */
function earningsRow(event: RecordedEvent) {
  if (event.type !== 'EarningsCredited') return null;
  const d = event.data as EarningsCreditedData;
  return {
    creator_id: d.creatorId,
    reference: d.reference,
    source: d.source,
    payer_id: d.payerId,
    gross_cents: d.grossCents,
    creator_share_cents: d.creatorShareCents,
    platform_fee_cents: d.platformFeeCents,
    occurred_at: d.occurredAt,
    available_at: d.availableAt,
    event_id: event.eventId,
  };
}

export const creatorBalancesProjector: Projector = {
  name: 'creator_balances',
  // 3: the covering index of the unreversed earnings.
  version: 3,
  tables: ['creator_earnings', 'creator_share_cuts'],
  eventTypes: ['EarningsCredited', 'EarningsReversed', 'CreatorShareReversed'],
  createTables,
  async apply({ table }, event) {
    const row = earningsRow(event);
    if (row) {
      await table('creator_earnings').insert(row).onConflict(['creator_id', 'reference']).ignore();
      return;
    }
    if (event.type === 'CreatorShareReversed') {
      const rows = cutRows(event.data as CreatorShareReversedData);
      await table('creator_share_cuts')
        .insert(rows)
        .onConflict(['creator_id', 'reversal_id', 'reference', 'part'])
        .ignore();
      return;
    }
    const d = event.data as EarningsReversedData;
    await table('creator_earnings')
      .where({ creator_id: d.creatorId, reference: d.reference })
      .update({ reversed_at: d.occurredAt });
  },
  applyAll: insertRuns(
    { table: 'creator_earnings', conflict: ['creator_id', 'reference'], rowOf: earningsRow },
    (c, e) => creatorBalancesProjector.apply(c, e),
  ),
};

export interface CreatorBalanceRow {
  availableCents: number;
  pendingCents: number;
  totalEarningsCents: number;
  nextAvailableAt: string | null;
}

/**
 * A creator's sums at `$3` (`$2` the creator; not `$1`: staff read them too), one statement:
 * earnings released, held and in total; what share reversals took from held earnings (by when
 * they release), from the balance and of the total; and what payouts hold.
 */
const CREATOR_SUMS: PageStatement = {
  name: 'creator-sums',
  text: `SELECT e.released, e.pending, e.total, e.next_available_at,
    c.released AS cut_released, c.pending AS cut_pending, c.available AS cut_available, c.share AS cut_share, h.held
  FROM (SELECT coalesce(sum(creator_share_cents) FILTER (WHERE available_at <= $3), 0)::text AS released,
          coalesce(sum(creator_share_cents) FILTER (WHERE available_at > $3), 0)::text AS pending,
          coalesce(sum(creator_share_cents), 0)::text AS total,
          min(available_at) FILTER (WHERE available_at > $3) AS next_available_at
        FROM creator_earnings WHERE creator_id = $2 AND reversed_at IS NULL) e,
    (SELECT
          coalesce(sum(c.cents) FILTER (WHERE c.part = 'pending' AND e.available_at <= $3 AND e.reversed_at IS NULL), 0)::text AS released,
          coalesce(sum(c.cents) FILTER (WHERE c.part = 'pending' AND e.available_at > $3 AND e.reversed_at IS NULL), 0)::text AS pending,
          coalesce(sum(c.cents) FILTER (WHERE c.part = 'available'), 0)::text AS available,
          coalesce(sum(c.cents) FILTER (WHERE c.part = 'share' AND e.reversed_at IS NULL), 0)::text AS share
        FROM creator_share_cuts c
        LEFT JOIN creator_earnings e ON e.creator_id = c.creator_id AND e.reference = c.reference
        WHERE c.creator_id = $2) c,
    (SELECT coalesce(sum(amount_cents), 0)::text AS held FROM payouts
        WHERE creator_id = $2 AND status IN ('pending', 'processing', 'completed')) h`,
};

interface CreatorSums {
  released: string;
  pending: string;
  total: string;
  next_available_at: Date | null;
  cut_released: string;
  cut_pending: string;
  cut_available: string;
  cut_share: string;
  held: string;
}

/** Balances of one creator at `now`, from the read models. */
export async function creatorBalances(read: PageRead, creatorId: string, now: Date): Promise<CreatorBalanceRow> {
  const [sums] = await read<CreatorSums>(CREATOR_SUMS, [creatorId, now]);
  const cents = (text: string) => Number(text);
  const next = sums.next_available_at;
  return {
    availableCents: cents(sums.released) - cents(sums.cut_released) - cents(sums.held) - cents(sums.cut_available),
    pendingCents: cents(sums.pending) - cents(sums.cut_pending),
    totalEarningsCents: cents(sums.total) - cents(sums.cut_share),
    nextAvailableAt: next ? new Date(next).toISOString() : null,
  };
}
