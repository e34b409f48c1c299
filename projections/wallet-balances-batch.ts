import type { RecordedEvent } from '../domain/event-store/port';
import type { BalanceMovement } from '../domain/wallet/events';
import { bulkInsert } from './engine/bulk-insert';
import { KeyedRows } from './engine/keyed-rows';
import type { ProjectionContext } from './engine/projector';

/**
 * The wallet read model for a batch in a few statements: the members' balances loaded once,
 * each movement applied past its member's last revision (as one by one), then the changed
 * balances and the new entries written in bulk.
 */
export async function applyWalletBatch(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const balances = await KeyedRows.load(
    context,
    'wallet_balances',
    'user_id',
    events.map((e) => (e.data as BalanceMovement).userId),
  );
  const entries: Array<Record<string, unknown>> = [];
  for (const event of events) {
    const data = event.data as BalanceMovement;
    const at = (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
    const existing = balances.get(data.userId);
    if (existing && BigInt(existing.last_revision as string) >= event.revision) continue;
    const credit = event.type === 'WalletCredited';
    balances.set(data.userId, {
      user_id: data.userId,
      balance_cents: data.balanceCents,
      credits: Number(existing?.credits ?? 0) + (credit ? 1 : 0),
      debits: Number(existing?.debits ?? 0) + (credit ? 0 : 1),
      last_revision: event.revision.toString(),
      updated_at: at,
    });
    entries.push({
      event_id: event.eventId,
      user_id: data.userId,
      kind: credit ? 'credit' : 'debit',
      amount_cents: data.amountCents,
      balance_cents: data.balanceCents,
      reason: data.reason,
      reference: data.reference,
      created_at: at,
    });
  }
  await balances.store();
  await bulkInsert(context, 'wallet_entries', entries, { conflict: ['event_id'] });
}
