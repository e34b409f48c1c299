import { parseCryptoUnits, type CryptoType } from '../contracts/crypto';
import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { DomainError, refuse } from '../shared/errors';
import { deterministicId, newId } from '../shared/ids';
import { computeConversion, toPreview } from './amounts';
import { conversionDecider } from './conversion-decider';
import type { ConversionNumbers } from './conversion-numbers';
import { cryptoTransactionStream, cryptoWalletsStream } from './events';
import type { RatesProvider } from './rates';
import { cryptoWalletsDecider } from './wallets-decider';

/**
 * The crypto context's way in: wallets, pricing and requesting conversions, spending them on a
 * plan; the ports they take (rates, with the peg as the default provider; conversion numbers)
 * and the preview the API answers with. api/ and realtime/ import this file and events.ts only.
 */
export { toPreview } from './amounts';
export type { ConversionNumbers } from './conversion-numbers';
export { PegRatesProvider, type RatesProvider } from './rates';

export const MINIMUM_CONVERSION_MESSAGE =
  'Minimum conversion is $10 USD after fees. Please increase your crypto amount';

export async function registerCryptoWallet(
  store: EventStore,
  input: { userId: string; cryptoType: CryptoType; walletAddress: string },
  context: CommandContext,
) {
  const walletId = newId();
  const result = await handleCommand(
    store,
    cryptoWalletsStream(input.userId),
    cryptoWalletsDecider,
    { type: 'RegisterCryptoWallet', walletId, ...input, now: context.now },
    context,
  );
  return { walletId, position: result.position, event: result.events[0] };
}

/** Prices a conversion at the current rate (the preview, and the figures a conversion is made with). */
export async function priceConversion(rates: RatesProvider, cryptoType: CryptoType, cryptoAmount: string, now: Date) {
  const units = parseCryptoUnits(cryptoAmount);
  if (units === null || units <= 0n)
    throw refuse.validation('Please enter a valid crypto amount', {
      cryptoAmount: 'Please enter a valid crypto amount',
    });
  const table = await rates.current(now);
  return computeConversion(cryptoType, units, table[cryptoType]);
}

/**
 * Starts a conversion (pending). Below the $10 net minimum it is refused. The processor is
 * called by the settlement process, not here, so a slow processor never holds the request.
 * The conversion's public number is drawn from `numbers` (in the product the PostgreSQL
 * sequence, `postgresConversionNumbers(db)`) and recorded in the event.
 */
export async function requestConversion(
  store: EventStore,
  rates: RatesProvider,
  input: {
    userId: string;
    cryptoType: CryptoType;
    cryptoAmount: string;
    walletAddress: string;
    walletId: string | null;
  },
  context: CommandContext,
  numbers: ConversionNumbers,
) {
  const figures = await priceConversion(rates, input.cryptoType, input.cryptoAmount, context.now);
  if (!figures.isValidMinimum) throw refuse.unprocessable(MINIMUM_CONVERSION_MESSAGE, { preview: toPreview(figures) });
  const preview = toPreview(figures);
  const transactionId = newId();
  const conversionNumber = await numbers.next();
  const result = await handleCommand(
    store,
    cryptoTransactionStream(transactionId),
    conversionDecider,
    {
      type: 'RequestConversion',
      transactionId,
      conversionId: newId(),
      conversionNumber,
      userId: input.userId,
      walletId: input.walletId,
      walletAddress: input.walletAddress,
      cryptoType: input.cryptoType,
      cryptoAmount: preview.cryptoAmount,
      exchangeRate: preview.exchangeRate,
      grossCents: figures.grossCents,
      feeCents: figures.feeCents,
      feeBasisPoints: figures.feeBasisPoints,
      netCents: figures.netCents,
      requestedAt: context.now.toISOString(),
    },
    context,
  );
  return { transactionId, conversionNumber, preview, position: result.position };
}

/**
 * Marks the conversions that paid for a site plan (idempotent per purchase). The plan was paid
 * from the balance already, so this is bookkeeping: a conversion that another purchase marked
 * meanwhile (or that is not completed) is skipped, never an error. Returns the ones marked.
 */
export async function markConversionsUsed(
  store: EventStore,
  transactionIds: string[],
  purchaseId: string,
  subscriptionMonths: number,
  context: CommandContext,
): Promise<string[]> {
  const marked: string[] = [];
  for (const transactionId of transactionIds) {
    try {
      await handleCommand(
        store,
        cryptoTransactionStream(transactionId),
        conversionDecider,
        { type: 'MarkUsedForSubscription', purchaseId, subscriptionMonths, now: context.now },
        context,
        {
          eventIds: [deterministicId(purchaseId, transactionId, 'used')],
        },
      );
      marked.push(transactionId);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return marked;
}
