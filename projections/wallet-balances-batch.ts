import type { RecordedEvent } from '../domain/event-store/port';
import type { BalanceMovement } from '../domain/wallet/events';
import type { ProjectionContext } from './projector';

interface Balance {
  balance_cents: string | number;
  credits: number;
  debits: number;
  last_revision: bigint;
  updated_at: string;
}

/**
 * The wallet read model for a batch in three statements: the members' rows read once, each
 * movement applied past its member's last revision (as one by one), then one upsert of the
 * changed balances and one insert of the new entries.
 */
export async function applyWalletBatch({ table }: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const users = [...new Set(events.map((e) => (e.data as BalanceMovement).userId))];
  const balances = new Map<string, Balance>();
  for (let i = 0; i < users.length; i += 5000) {
    for (const row of await table('wallet_balances').whereIn('user_id', users.slice(i, i + 5000)).select('*')) balances.set(row.user_id, { ...row, last_revision: BigInt(row.last_revision) });
  }
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
  const rows = [...changed].map((userId) => ({ user_id: userId, ...balances.get(userId)!, last_revision: balances.get(userId)!.last_revision.toString() }));
  for (let i = 0; i < rows.length; i += 1000) await table('wallet_balances').insert(rows.slice(i, i + 1000)).onConflict('user_id').merge();
  for (let i = 0; i < entries.length; i += 1000) await table('wallet_entries').insert(entries.slice(i, i + 1000)).onConflict('event_id').ignore();
}
