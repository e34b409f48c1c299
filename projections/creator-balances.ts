import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import type { CreatorShareReversedData, EarningsCreditedData, EarningsReversedData } from '../domain/payouts/events';
import { insertRuns } from './engine/insert-runs';
import type { Projector } from './engine/projector';

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
  version: 2,
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

/** Balances of one creator at `now`, from the read models. */
export async function creatorBalances(db: Knex, creatorId: string, now: Date): Promise<CreatorBalanceRow> {
  const earnings = await db('creator_earnings')
    .where({ creator_id: creatorId })
    .whereNull('reversed_at')
    .select(
      db.raw('coalesce(sum(creator_share_cents) filter (where available_at <= ?), 0)::text as released', [now]),
      db.raw('coalesce(sum(creator_share_cents) filter (where available_at > ?), 0)::text as pending', [now]),
      db.raw('coalesce(sum(creator_share_cents), 0)::text as total'),
      db.raw('min(available_at) filter (where available_at > ?) as next_available_at', [now]),
    )
    .first();
  // What share reversals took: from held earnings (by when they release), from the balance, of the total.
  const cuts = await db('creator_share_cuts as c')
    .leftJoin('creator_earnings as e', (join) =>
      join.on('e.creator_id', 'c.creator_id').andOn('e.reference', 'c.reference'),
    )
    .where('c.creator_id', creatorId)
    .select(
      db.raw(
        `coalesce(sum(c.cents) filter (where c.part = 'pending' and e.available_at <= ? and e.reversed_at is null), 0)::text as released`,
        [now],
      ),
      db.raw(
        `coalesce(sum(c.cents) filter (where c.part = 'pending' and e.available_at > ? and e.reversed_at is null), 0)::text as pending`,
        [now],
      ),
      db.raw(`coalesce(sum(c.cents) filter (where c.part = 'available'), 0)::text as available`),
      db.raw(`coalesce(sum(c.cents) filter (where c.part = 'share' and e.reversed_at is null), 0)::text as share`),
    )
    .first();
  const held = await db('payouts')
    .where({ creator_id: creatorId })
    .whereIn('status', ['pending', 'processing', 'completed'])
    .sum({ held: 'amount_cents' })
    .first();
  const next = earnings?.next_available_at as Date | null;
  return {
    availableCents:
      Number(earnings?.released ?? 0) -
      Number(cuts?.released ?? 0) -
      Number(held?.held ?? 0) -
      Number(cuts?.available ?? 0),
    pendingCents: Number(earnings?.pending ?? 0) - Number(cuts?.pending ?? 0),
    totalEarningsCents: Number(earnings?.total ?? 0) - Number(cuts?.share ?? 0),
    nextAvailableAt: next ? new Date(next).toISOString() : null,
  };
}
