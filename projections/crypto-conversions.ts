import type { Knex } from 'knex';
import {
  formatCryptoUnits,
  formatRate,
  parseCryptoUnits,
  parseRateUnits,
  type ConversionRecord,
  type CryptoType,
  type TransactionStatus,
} from '../domain/contracts/crypto';
import { formatCents } from '../domain/contracts/money';
import type {
  CryptoConversionCompletedData,
  CryptoConversionRequestedData,
  CryptoConversionUsedData,
} from '../domain/crypto/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PageRead, PageStatement } from './page-reads';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';

/**
 * `crypto_conversions` (SPEC §3): the member's conversion history, with whether a conversion
 * paid for a site plan (usedForSubscription, subscriptionMonths). Every update sets absolute
 * values from its event, so replays change nothing. `number` is the conversion's public id,
 * copied from the request event (null for events written before numbers existed: never guessed).
 */
export const cryptoConversionsProjector: Projector = {
  name: 'crypto_conversions',
  version: 2,
  tables: ['crypto_conversions'],
  eventTypes: [
    'CryptoConversionRequested',
    'CryptoConversionCompleted',
    'CryptoConversionFailed',
    'CryptoConversionUsedForSubscription',
  ],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('crypto_conversions', (t) => {
      t.uuid('id').primary();
      t.bigInteger('number').nullable().index();
      t.text('user_id').notNullable().index();
      t.uuid('transaction_id').notNullable().unique();
      t.text('from_crypto_type').notNullable();
      t.decimal('crypto_amount', 18, 8).notNullable();
      t.bigInteger('usd_amount_cents').notNullable();
      t.bigInteger('service_fee_cents').notNullable();
      t.bigInteger('net_amount_cents').notNullable();
      t.decimal('exchange_rate', 10, 4).notNullable();
      t.text('status').notNullable();
      t.boolean('used_for_subscription').notNullable();
      t.integer('subscription_months').nullable();
      t.uuid('purchase_id').nullable();
      t.timestamp('completed_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  // Every event names the conversion by its transactionId (unique per conversion).
  ...rowPerEvent(
    'crypto_conversions',
    'transaction_id',
    (event) => (event.data as { transactionId: string }).transactionId,
    nextRow,
  ),
};

/** The conversion's row after the event; an update of a missing row does nothing, as UPDATE ... WHERE. */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  switch (event.type) {
    case 'CryptoConversionRequested': {
      const d = event.data as CryptoConversionRequestedData;
      if (row) return row;
      return {
        id: d.conversionId,
        number: d.conversionNumber ?? null,
        user_id: d.userId,
        transaction_id: d.transactionId,
        from_crypto_type: d.cryptoType,
        crypto_amount: d.cryptoAmount,
        usd_amount_cents: d.grossCents,
        service_fee_cents: d.feeCents,
        net_amount_cents: d.netCents,
        exchange_rate: d.exchangeRate,
        status: 'pending',
        used_for_subscription: false,
        subscription_months: null,
        purchase_id: null,
        completed_at: null,
        created_at: d.requestedAt,
      };
    }
    case 'CryptoConversionCompleted': {
      const d = event.data as CryptoConversionCompletedData;
      return row && { ...row, status: 'completed', completed_at: d.completedAt };
    }
    case 'CryptoConversionFailed':
      return row && { ...row, status: 'failed' };
    case 'CryptoConversionUsedForSubscription': {
      const d = event.data as CryptoConversionUsedData;
      return (
        row && {
          ...row,
          used_for_subscription: true,
          subscription_months: d.subscriptionMonths,
          purchase_id: d.purchaseId,
        }
      );
    }
  }
  return row;
}

// Queries: a member's conversions as the client shows them, and the unused ones that can pay for a plan.

const iso = (value: Date | string) => new Date(value).toISOString();
/** numeric(18,8) / numeric(10,4) come back as strings; normalize their decimals. */
const crypto8 = (value: string) => formatCryptoUnits(parseCryptoUnits(String(value)) ?? 0n);
const rate4 = (value: string) => formatRate(parseRateUnits(String(value)) ?? 0n);

interface ConversionRow {
  user_id: string;
  id: string;
  /** The public number (int8, so a string); null for conversions from before numbers. */
  number: string | null;
  transaction_id: string;
  from_crypto_type: CryptoType;
  crypto_amount: string;
  usd_amount_cents: string;
  service_fee_cents: string;
  net_amount_cents: string;
  exchange_rate: string;
  status: TransactionStatus;
  used_for_subscription: boolean;
  subscription_months: number | null;
  created_at: Date;
}

function conversionRecord(row: ConversionRow): ConversionRecord {
  return {
    id: row.number === null ? null : Number(row.number),
    transactionId: row.transaction_id,
    cryptoType: row.from_crypto_type,
    cryptoAmount: crypto8(row.crypto_amount),
    usdAmount: formatCents(BigInt(row.usd_amount_cents)),
    netAmount: formatCents(BigInt(row.net_amount_cents)),
    exchangeRate: rate4(row.exchange_rate),
    feeAmount: formatCents(BigInt(row.service_fee_cents)),
    status: row.status,
    createdAt: iso(row.created_at),
    usedForSubscription: row.used_for_subscription,
    subscriptionMonths: row.subscription_months,
  };
}

const CONVERSION_COLUMNS = `c.id, c.number, c.transaction_id, c.from_crypto_type, c.crypto_amount, c.usd_amount_cents,
  c.service_fee_cents, c.net_amount_cents, c.exchange_rate, c.status, c.used_for_subscription, c.subscription_months,
  c.created_at`;
const NEWEST_FIRST = 'c.created_at DESC, c.number DESC NULLS LAST, c.id DESC';

/** A member's (`$1`) conversions, newest first. */
const CONVERSIONS: PageStatement = {
  name: 'crypto-conversions',
  text: `SELECT ${CONVERSION_COLUMNS} FROM crypto_conversions c WHERE c.user_id = $1 ORDER BY ${NEWEST_FIRST}`,
};

/**
 * A member's (`$1`) USD balance on every row, beside their completed conversions whose credit
 * has reached it (`wallet_entries`), newest first; one row of nulls but the balance without
 * any. One statement reads one snapshot: the balance includes every conversion listed.
 */
const CREDITED_BALANCE: PageStatement = {
  name: 'crypto-credited-balance',
  text: `SELECT b.balance_cents, ${CONVERSION_COLUMNS}
  FROM (SELECT (SELECT balance_cents FROM wallet_balances WHERE user_id = $1) AS balance_cents) b
  LEFT JOIN (SELECT * FROM crypto_conversions c WHERE c.user_id = $1 AND c.status = 'completed'
    AND EXISTS (SELECT 1 FROM wallet_entries w
      WHERE w.user_id = c.user_id AND w.reference = 'conversion:' || c.transaction_id)) c ON true
  ORDER BY ${NEWEST_FIRST}`,
};

/** The viewer's conversions, newest first. */
export async function conversionsOf(read: PageRead): Promise<ConversionRecord[]> {
  return (await read<ConversionRow>(CONVERSIONS, [])).map(conversionRecord);
}

/**
 * A member's USD balance in cents (0 before their first credit) and their completed conversions
 * whose credit has reached it, newest first. One round trip: the wallet page asks on every load.
 */
export async function creditedBalanceOf(
  read: PageRead,
): Promise<{ balanceCents: number; conversions: ConversionRecord[] }> {
  const rows = await read<ConversionRow & { balance_cents: string | null }>(CREDITED_BALANCE, []);
  return {
    balanceCents: Number(rows[0]?.balance_cents ?? 0),
    conversions: rows.filter((row) => row.id !== null).map(conversionRecord),
  };
}

/** A member's completed conversions not yet used for a site plan, oldest first. */
export function unusedConversionsOf(
  db: Knex,
  userId: string,
): Promise<Pick<ConversionRow, 'number' | 'transaction_id' | 'net_amount_cents'>[]> {
  return db<ConversionRow>('crypto_conversions')
    .where({ user_id: userId, status: 'completed', used_for_subscription: false })
    .orderBy('created_at', 'asc');
}
