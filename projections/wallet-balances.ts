import type { Knex } from 'knex';
import type { BalanceMovement } from '../domain/wallet/events';
import { walletEventTypes } from '../domain/wallet/events';
import type { Projector } from './engine/projector';
import { applyWalletBatch } from './wallet-balances-batch';

/**
 * `wallet_balances`: each member's USD balance (cents) with the last applied stream revision,
 * and `wallet_entries`: every credit and debit. An event at or below the stored revision was
 * already applied, so replays change nothing.
 */
export const walletBalancesProjector: Projector = {
  name: 'wallet_balances',
  version: 1,
  tables: ['wallet_balances', 'wallet_entries'],
  eventTypes: [...walletEventTypes],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('wallet_balances', (t) => {
      t.text('user_id').primary();
      t.bigInteger('balance_cents').notNullable();
      t.integer('credits').notNullable();
      t.integer('debits').notNullable();
      t.bigInteger('last_revision').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await db.schema.withSchema(schema).createTable('wallet_entries', (t) => {
      t.uuid('event_id').primary();
      t.text('user_id').notNullable().index();
      t.text('kind').notNullable();
      t.bigInteger('amount_cents').notNullable();
      t.bigInteger('balance_cents').notNullable();
      t.text('reason').notNullable();
      t.text('reference').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  async apply({ table }, event) {
    const data = event.data as BalanceMovement;
    const at = (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
    const existing = await table('wallet_balances').where({ user_id: data.userId }).first();
    if (existing && BigInt(existing.last_revision) >= event.revision) return;
    const credit = event.type === 'WalletCredited';
    const row = {
      balance_cents: data.balanceCents,
      credits: (existing?.credits ?? 0) + (credit ? 1 : 0),
      debits: (existing?.debits ?? 0) + (credit ? 0 : 1),
      last_revision: event.revision.toString(),
      updated_at: at,
    };
    if (existing) await table('wallet_balances').where({ user_id: data.userId }).update(row);
    else await table('wallet_balances').insert({ user_id: data.userId, ...row });
    await table('wallet_entries')
      .insert({
        event_id: event.eventId,
        user_id: data.userId,
        kind: credit ? 'credit' : 'debit',
        amount_cents: data.amountCents,
        balance_cents: data.balanceCents,
        reason: data.reason,
        reference: data.reference,
        created_at: at,
      })
      .onConflict('event_id')
      .ignore();
  },
  applyAll: applyWalletBatch,
};

/** A member's USD balance in cents (0 before their first credit). */
export async function balanceCents(db: Knex, userId: string): Promise<number> {
  const row = await db('wallet_balances').where({ user_id: userId }).first();
  return row ? Number(row.balance_cents) : 0;
}

/** Every member's balance in cents, by user id (reconciliation). */
export async function allBalances(db: Knex): Promise<Map<string, number>> {
  return new Map(
    (await db('wallet_balances').select('user_id', 'balance_cents')).map((row) => [
      row.user_id,
      Number(row.balance_cents),
    ]),
  );
}
