import type { Knex } from 'knex';
import { formatCryptoUnits, parseCryptoUnits, type CryptoType, type CryptoWallet } from '../domain/contracts/crypto';
import type { CryptoConversionCompletedData, CryptoWalletRegisteredData } from '../domain/crypto/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { REMOVED } from '../domain/privacy/personal-data';
import { KeyedRows } from './engine/keyed-rows';
import type { ProjectionContext, Projector } from './engine/projector';
import { forgettingAccounts } from './engine/forgetting-accounts';

/**
 * `crypto_wallets` (SPEC §3): a member's registered deposit wallets. `balance` is the crypto
 * converted through the wallet so far; `crypto_wallet_deposits` remembers which conversions
 * were counted, so a replayed completion is never added twice.
 */
export const cryptoWalletsProjector: Projector = {
  name: 'crypto_wallets',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['crypto_wallets', 'crypto_wallet_deposits'],
  eventTypes: ['CryptoWalletRegistered', 'CryptoConversionCompleted', 'AccountDeleted'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('crypto_wallets', (t) => {
      t.uuid('id').primary();
      t.text('user_id').notNullable().index();
      t.text('crypto_type').notNullable();
      t.text('wallet_address').notNullable();
      t.decimal('balance', 18, 8).notNullable();
      t.boolean('is_active').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await db.schema.withSchema(schema).createTable('crypto_wallet_deposits', (t) => {
      t.uuid('transaction_id').primary();
      t.uuid('wallet_id').notNullable();
    });
  },
  // Issue 23: a deleted member's addresses read REMOVED (as CryptoWalletRegistered replays once the key is gone).
  ...forgettingAccounts(applyWallets, (context, userId) =>
    context.table('crypto_wallets').where({ user_id: userId }).update({ wallet_address: REMOVED }),
  ),
};

/**
 * Four statements per batch: the wallets and counted deposits the batch touches are read,
 * the events applied to them in memory in order, then new deposits and changed wallets written.
 */
async function applyWallets(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const completions = events
    .filter((e) => e.type === 'CryptoConversionCompleted')
    .map((e) => e.data as CryptoConversionCompletedData);
  const walletIds = events
    .map((e) => (e.data as { walletId: string | null }).walletId)
    .filter((id): id is string => Boolean(id));
  const wallets = await KeyedRows.load(context, 'crypto_wallets', 'id', walletIds);
  const counted = await KeyedRows.load(
    context,
    'crypto_wallet_deposits',
    'transaction_id',
    completions.filter((d) => d.walletId).map((d) => d.transactionId),
  );
  for (const event of events) {
    if (event.type === 'CryptoWalletRegistered') {
      const d = event.data as CryptoWalletRegisteredData;
      if (wallets.get(d.walletId)) continue;
      wallets.set(d.walletId, {
        id: d.walletId,
        user_id: d.userId,
        crypto_type: d.cryptoType,
        wallet_address: d.walletAddress,
        balance: '0',
        is_active: true,
        created_at: d.registeredAt,
        updated_at: d.registeredAt,
      });
      continue;
    }
    const d = event.data as CryptoConversionCompletedData;
    if (!d.walletId || counted.get(d.transactionId)) continue;
    // Counted even when the wallet is unknown, as one by one: it is never added later.
    counted.set(d.transactionId, { transaction_id: d.transactionId, wallet_id: d.walletId });
    const wallet = wallets.get(d.walletId);
    if (!wallet) continue;
    const balance = parseCryptoUnits(String(wallet.balance))! + parseCryptoUnits(d.cryptoAmount)!;
    wallets.set(d.walletId, { ...wallet, balance: formatCryptoUnits(balance), updated_at: d.completedAt });
  }
  await counted.store();
  await wallets.store();
}

// Queries: a member's wallets as the client shows them.

function walletView(row: {
  id: string;
  crypto_type: CryptoType;
  wallet_address: string;
  balance: string;
  is_active: boolean;
  created_at: Date;
}): CryptoWallet {
  return {
    id: row.id,
    cryptoType: row.crypto_type,
    walletAddress: row.wallet_address,
    balance: formatCryptoUnits(parseCryptoUnits(String(row.balance)) ?? 0n),
    isActive: row.is_active,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A member's wallets, oldest first. */
export async function walletsOf(db: Knex, userId: string): Promise<CryptoWallet[]> {
  return (await db('crypto_wallets').where({ user_id: userId }).orderBy('created_at', 'asc')).map(walletView);
}

export async function findWallet(db: Knex, walletId: string): Promise<CryptoWallet | null> {
  const row = await db('crypto_wallets').where({ id: walletId }).first();
  return row ? walletView(row) : null;
}

/** The id of the member's wallet with this address (any letter case), if they registered one. */
export async function walletIdByAddress(db: Knex, userId: string, walletAddress: string): Promise<string | null> {
  return (
    (
      await db('crypto_wallets')
        .where({ user_id: userId })
        .whereRaw('lower(wallet_address) = lower(?)', [walletAddress])
        .first('id')
    )?.id ?? null
  );
}
