import type { RecordedEvent } from '../domain/event-store/port';
import type { BalanceMovement } from '../domain/wallet/events';
import { bulkInsert } from './bulk-insert';
import type { ProjectionContext } from './projector';

interface Balance {
  balance_cents: string | number;
  credits: number;
  debits: number;
  last_revision: bigint;
  updated_at: string;
}

/**
 * The wallet read model for a batch in a few statements: the members' rows read once, each
 * movement applied past its member's last revision (as one by one), then the changed balances
 * (new ones inserted, stored ones overwritten) and the new entries written in bulk.
 */
export async function applyWalletBatch(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const users = [...new Set(events.map((e) => (e.data as BalanceMovement).userId))];
  const balances = new Map<string, Balance>();
  const { rows: stored } = await context.trx.raw(`SELECT * FROM ${context.ref('wallet_balances')} WHERE user_id = ANY(?)`, [users]);
  for (const row of stored) balances.set(row.user_id, { ...row, last_revision: BigInt(row.last_revision) });
  const known = new Set(balances.keys());
  const changed = new Set<string>();
  const entries: Array<Record<string, unknown>> = [];
  for (const event of events) {
    const data = event.data as BalanceMovement;
    const at = (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
    const existing = balances.get(data.userId);
    if (existing && existing.last_revision >= event.revision) continue;
    const credit = event.type === 'WalletCredited';
    balances.set(data.userId, { balance_cents: data.balanceCents, credits: (existing?.credits ?? 0) + (credit ? 1 : 0), debits: (existing?.debits ?? 0) + (credit ? 0 : 1), last_revision: event.revision, updated_at: at });
    changed.add(data.userId);
    entries.push({ event_id: event.eventId, user_id: data.userId, kind: credit ? 'credit' : 'debit', amount_cents: data.amountCents, balance_cents: data.balanceCents, reason: data.reason, reference: data.reference, created_at: at });
  }
  const rowOf = (userId: string) => ({ user_id: userId, ...balances.get(userId)!, last_revision: balances.get(userId)!.last_revision.toString() });
  await bulkInsert(context, 'wallet_balances', [...changed].filter((id) => !known.has(id)).map(rowOf), { conflict: ['user_id'] });
  await bulkInsert(context, 'wallet_balances', [...changed].filter((id) => known.has(id)).map(rowOf), { conflict: ['user_id'], merge: true });
  await bulkInsert(context, 'wallet_entries', entries, { conflict: ['event_id'] });
}
