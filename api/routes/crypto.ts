import { Router } from 'express';
import type { Knex } from 'knex';
import {
  calculateConversionSchema,
  convertSchema,
  formatCents,
  formatCryptoUnits,
  formatRate,
  parseCryptoUnits,
  parseRateUnits,
  registerWalletSchema,
  type ConversionRecord,
  type ConvertResponse,
  type CryptoBalance,
  type CryptoRates,
  type CryptoType,
  type CryptoWallet,
  type TransactionStatus,
} from '../../domain/contracts/money';
import { toPreview } from '../../domain/crypto/amounts';
import { priceConversion, registerCryptoWallet, requestConversion } from '../../domain/crypto/commands';
import type { ConversionNumbers } from '../../domain/crypto/conversion-numbers';
import { PegRatesProvider, type RatesProvider } from '../../domain/crypto/rates';
import { postgresConversionNumbers } from '../../projections/crypto-conversion-numbers';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

const iso = (value: Date | string) => new Date(value).toISOString();
/** numeric(18,8) / numeric(10,4) come back as strings; normalize their decimals. */
const crypto8 = (value: string) => formatCryptoUnits(parseCryptoUnits(String(value)) ?? 0n);
const rate4 = (value: string) => formatRate(parseRateUnits(String(value)) ?? 0n);

export interface ConversionRow {
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

export function conversionRecord(row: ConversionRow): ConversionRecord {
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

function walletView(row: { id: string; crypto_type: CryptoType; wallet_address: string; balance: string; is_active: boolean; created_at: Date }): CryptoWallet {
  return { id: row.id, cryptoType: row.crypto_type, walletAddress: row.wallet_address, balance: crypto8(row.balance), isActive: row.is_active, createdAt: iso(row.created_at) };
}

export const listConversions = (db: Knex, userId: string) =>
  db<ConversionRow>('crypto_conversions').where({ user_id: userId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'number', order: 'desc', nulls: 'last' }, { column: 'id', order: 'desc' }]);

export async function balanceCents(db: Knex, userId: string): Promise<number> {
  const row = await db('wallet_balances').where({ user_id: userId }).first();
  return row ? Number(row.balance_cents) : 0;
}

/** SPEC §7 crypto calls: rates, wallets, preview, conversion, balance and history. */
export function cryptoRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const rates = (api.deps.ports.cryptoRates as RatesProvider | undefined) ?? new PegRatesProvider();
  const numbers = (api.deps.ports.conversionNumbers as ConversionNumbers | undefined) ?? postgresConversionNumbers(db);

  router.get('/crypto/rates', async (_req, res) => {
    const now = api.deps.clock();
    const table = await rates.current(now);
    const body: CryptoRates = { USDC: formatRate(table.USDC), USDT: formatRate(table.USDT), updatedAt: now.toISOString() };
    res.json(body);
  });

  router.get('/crypto/wallets', api.requireUser, async (req, res) => {
    const rows = await db('crypto_wallets').where({ user_id: req.userId }).orderBy('created_at', 'asc');
    res.json(rows.map(walletView));
  });

  router.post('/crypto/wallets', api.requireUser, async (req, res) => {
    const body = parseWith(registerWalletSchema, req.body);
    const { walletId, position } = await registerCryptoWallet(store, { userId: req.userId!, ...body }, api.context(req));
    await api.readYourWrites(position);
    const row = await db('crypto_wallets').where({ id: walletId }).first();
    res.status(201).json(row ? walletView(row) : { id: walletId, cryptoType: body.cryptoType, walletAddress: body.walletAddress, balance: '0.00000000', isActive: true, createdAt: api.deps.clock().toISOString() });
  });

  router.post('/crypto/calculate', api.requireUser, async (req, res) => {
    const body = parseWith(calculateConversionSchema, req.body);
    res.json(toPreview(await priceConversion(rates, body.cryptoType, body.cryptoAmount, api.deps.clock())));
  });

  router.post('/crypto/convert', api.requireUser, idempotency(db), async (req, res) => {
    const body = parseWith(convertSchema, req.body);
    const wallet = await db('crypto_wallets').where({ user_id: req.userId }).whereRaw('lower(wallet_address) = lower(?)', [body.walletAddress]).first();
    const result = await requestConversion(store, rates, { userId: req.userId!, ...body, walletId: wallet?.id ?? null }, api.context(req), numbers);
    await api.readYourWrites(result.position);
    const answer: ConvertResponse = {
      message: `Conversion initiated: ${result.preview.cryptoAmount} ${body.cryptoType} to $${result.preview.netUsdAmount} USD after fees`,
      conversionId: result.conversionNumber,
      transactionId: result.transactionId,
      status: 'pending',
      preview: result.preview,
    };
    res.status(202).json(answer);
  });

  router.get('/crypto/balance', api.requireUser, async (req, res) => {
    // The conversions whose credit has reached the balance, then the balance: read in this order,
    // the total always includes every conversion listed.
    const rows = await listConversions(db, req.userId!)
      .where({ status: 'completed' })
      .whereExists(db('wallet_entries').whereRaw(`wallet_entries.reference = 'conversion:' || crypto_conversions.transaction_id`));
    const cents = await balanceCents(db, req.userId!);
    const body: CryptoBalance = { totalUsd: formatCents(cents), conversions: rows.map(conversionRecord) };
    res.json(body);
  });

  router.get('/crypto/conversions', api.requireUser, async (req, res) => {
    res.json((await listConversions(db, req.userId!)).map(conversionRecord));
  });

  return router;
}
