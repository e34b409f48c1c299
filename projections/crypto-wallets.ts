import { formatCryptoUnits, parseCryptoUnits } from '../domain/contracts/money';
import type { CryptoConversionCompletedData, CryptoWalletRegisteredData } from '../domain/crypto/events';
import type { Projector } from './projector';

/**
 * `crypto_wallets` (SPEC §3): a member's registered deposit wallets. `balance` is the crypto
 * converted through the wallet so far; `crypto_wallet_deposits` remembers which conversions
 * were counted, so a replayed completion is never added twice.
 */
export const cryptoWalletsProjector: Projector = {
  name: 'crypto_wallets',
  version: 1,
  tables: ['crypto_wallets', 'crypto_wallet_deposits'],
  eventTypes: ['CryptoWalletRegistered', 'CryptoConversionCompleted'],
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
  async apply({ table }, event) {
    if (event.type === 'CryptoWalletRegistered') {
      const d = event.data as CryptoWalletRegisteredData;
      await table('crypto_wallets')
        .insert({ id: d.walletId, user_id: d.userId, crypto_type: d.cryptoType, wallet_address: d.walletAddress, balance: '0', is_active: true, created_at: d.registeredAt, updated_at: d.registeredAt })
        .onConflict('id')
        .ignore();
      return;
    }
    const d = event.data as CryptoConversionCompletedData;
    if (!d.walletId) return;
    const counted = await table('crypto_wallet_deposits').insert({ transaction_id: d.transactionId, wallet_id: d.walletId }).onConflict('transaction_id').ignore().returning('transaction_id');
    if (counted.length === 0) return;
    const wallet = await table('crypto_wallets').where({ id: d.walletId }).first();
    if (!wallet) return;
    const balance = parseCryptoUnits(String(wallet.balance))! + parseCryptoUnits(d.cryptoAmount)!;
    await table('crypto_wallets').where({ id: d.walletId }).update({ balance: formatCryptoUnits(balance), updated_at: d.completedAt });
  },
};
