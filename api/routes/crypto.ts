import { Router } from 'express';
import {
  calculateConversionSchema,
  convertSchema,
  formatRate,
  registerWalletSchema,
  type ConvertResponse,
  type CryptoBalance,
  type CryptoRates,
} from '../../domain/contracts/crypto';
import { formatCents } from '../../domain/contracts/money';
import {
  PegRatesProvider,
  priceConversion,
  registerCryptoWallet,
  requestConversion,
  toPreview,
  type ConversionNumbers,
  type RatesProvider,
} from '../../domain/crypto/commands';
import { postgresConversionNumbers } from '../../projections/crypto-conversion-numbers';
import { conversionsOf, creditedBalanceOf } from '../../projections/crypto-conversions';
import { findWallet, walletIdByAddress, walletsOf } from '../../projections/crypto-wallets';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** SPEC §7 crypto calls: rates, wallets, preview, conversion, balance and history. */
export function cryptoRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const rates = (api.deps.ports.cryptoRates as RatesProvider | undefined) ?? new PegRatesProvider();
  const numbers = (api.deps.ports.conversionNumbers as ConversionNumbers | undefined) ?? postgresConversionNumbers(db);

  router.get('/crypto/rates', async (_req, res) => {
    const now = api.deps.clock();
    const table = await rates.current(now);
    const body: CryptoRates = {
      USDC: formatRate(table.USDC),
      USDT: formatRate(table.USDT),
      updatedAt: now.toISOString(),
    };
    res.json(body);
  });

  router.get('/crypto/wallets', api.requireUser, async (req, res) => {
    res.json(await walletsOf(db, req.userId!));
  });

  router.post('/crypto/wallets', api.requireUser, async (req, res) => {
    const body = parseWith(registerWalletSchema, req.body);
    const { walletId, position } = await registerCryptoWallet(
      store,
      { userId: req.userId!, ...body },
      api.context(req),
    );
    await api.readYourWrites(position);
    res.status(201).json(
      (await findWallet(db, walletId)) ?? {
        id: walletId,
        cryptoType: body.cryptoType,
        walletAddress: body.walletAddress,
        balance: '0.00000000',
        isActive: true,
        createdAt: api.deps.clock().toISOString(),
      },
    );
  });

  router.post('/crypto/calculate', api.requireUser, async (req, res) => {
    const body = parseWith(calculateConversionSchema, req.body);
    res.json(toPreview(await priceConversion(rates, body.cryptoType, body.cryptoAmount, api.deps.clock())));
  });

  router.post('/crypto/convert', api.requireUser, idempotency(db), async (req, res) => {
    const body = parseWith(convertSchema, req.body);
    const walletId = await walletIdByAddress(db, req.userId!, body.walletAddress);
    const result = await requestConversion(
      store,
      rates,
      { userId: req.userId!, ...body, walletId },
      api.context(req),
      numbers,
    );
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

  api.pageRead('/crypto/balance', [api.requireUser], async (_req, read) => {
    // Read together (one snapshot): the total always includes every conversion listed.
    const { balanceCents, conversions } = await creditedBalanceOf(read);
    const body: CryptoBalance = { totalUsd: formatCents(balanceCents), conversions };
    return body;
  });

  api.pageRead('/crypto/conversions', [api.requireUser], async (_req, read) => conversionsOf(read));

  return router;
}
