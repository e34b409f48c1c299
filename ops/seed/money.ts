import { registerCryptoWallet, requestConversion } from '../../domain/crypto/commands';
import { cryptoTransactionStream } from '../../domain/crypto/events';
import { checkSettlements, conversionCredit, conversionSubmission } from '../../domain/crypto/settlement-process';
import type { RecordedEvent } from '../../domain/event-store/port';
import { addPaymentAccount, processPayout, requestPayout } from '../../domain/payouts/commands';
import { balancesAt, creatorAccountDecider } from '../../domain/payouts/decider';
import { creatorAccountStream } from '../../domain/payouts/events';
import { loadState } from '../../domain/shared/command-handler';
import { as, type SeedEnv } from './env';
import type { Person } from './people';

/** The newest event of a stream of the given type (what a process manager would be handed). */
export async function lastOfType(env: SeedEnv, streamId: string, type: string): Promise<RecordedEvent> {
  const found = (await env.store.readStream(streamId)).filter((e) => e.type === type).at(-1);
  if (!found) throw new Error(`no ${type} in ${streamId}`);
  return found;
}

/**
 * A crypto wallet and a 25-coin conversion, carried through like the running product does:
 * the submission process, the processor's confirmation (checked 2 s later) and the credit of
 * the net USD to the member's balance. Each reaction is idempotent, so a running process
 * manager doing the same writes nothing twice.
 */
export async function convertCrypto(env: SeedEnv, member: Person, i: number, now: Date): Promise<void> {
  const cryptoType = i % 4 === 0 ? 'USDC' : 'USDT';
  const walletAddress = `0x${(i + 1).toString(16).padStart(40, 'a')}`;
  const context = as(member.id, now);
  const wallet = await registerCryptoWallet(env.store, { userId: member.id, cryptoType, walletAddress }, context);
  const { transactionId } = await requestConversion(
    env.store,
    env.rates,
    { userId: member.id, cryptoType, cryptoAmount: '25.00000000', walletAddress, walletId: wallet.walletId },
    context,
    env.conversionNumbers,
  );
  const stream = cryptoTransactionStream(transactionId);
  await conversionSubmission(env.crypto).handle(await lastOfType(env, stream, 'CryptoConversionRequested'), {
    store: env.store,
    now,
  });
  const submitted = (await lastOfType(env, stream, 'CryptoConversionSubmitted')).data as {
    gatewayTransactionId: string;
  };
  const later = new Date(now.getTime() + 2000);
  await checkSettlements(
    env.store,
    env.crypto,
    [{ transactionId, gatewayTransactionId: submitted.gatewayTransactionId }],
    later,
  );
  await conversionCredit.handle(await lastOfType(env, stream, 'CryptoConversionCompleted'), {
    store: env.store,
    now: later,
  });
}

/**
 * A bank account and a payout of the whole available balance; finance staff (`staffId`)
 * start processing every second one.
 */
export async function payOut(env: SeedEnv, creator: Person, i: number, staffId: string, now: Date): Promise<void> {
  const context = as(creator.id, now);
  const account = await addPaymentAccount(
    env.store,
    env.payouts,
    creator.id,
    {
      type: 'bank_account',
      accountHolderName: `${creator.firstName} ${creator.lastName}`,
      bankAccountLast4: '6789',
      routingNumber: '110000000',
    },
    context,
  );
  const { state } = await loadState(env.store, creatorAccountStream(creator.id), creatorAccountDecider);
  const { availableCents } = balancesAt(state, now);
  if (availableCents <= 0) return;
  const { payoutId } = await requestPayout(
    env.store,
    creator.id,
    { paymentAccountId: account.paymentAccountId, amountCents: availableCents },
    context,
  );
  if (i % 2 === 0) await processPayout(env.store, env.payouts, creator.id, payoutId, as(staffId, now));
}
