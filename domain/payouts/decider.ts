import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type {
  CreatorAccountEvent,
  CreatorShareReversedData,
  EarningsSource,
  PaymentAccountType,
  PayoutStatus,
  ShareReversalCause,
} from './events';
import { availableAtFor, payoutFee, splitEarnings } from './money';
import { planShareReversal } from './share-reversal';

/** The write model of one creator's account: earnings, payment accounts and payouts. */

export interface EarningState {
  grossCents: number;
  creatorShareCents: number;
  platformFeeCents: number;
  availableAt: string;
  reversed: boolean;
  /** Taken from this earning while it was pending, by share reversals (it releases that much less). */
  cutCents: number;
  /** Of this sale: the gross given back so far, and the creator's share of it reversed. */
  reversedGrossCents: number;
  reversedShareCents: number;
}

export interface PaymentAccountState {
  paymentAccountId: string;
  type: PaymentAccountType;
  isDefault: boolean;
  isVerified: boolean;
  /** The processor refused to verify it: it never receives payouts. */
  verificationFailed: boolean;
  addedAt: string;
  /** Where transfers go (handed to the payout gateway). */
  stripeAccountId: string | null;
  bankAccountLast4: string | null;
  routingNumber: string | null;
}

export interface PayoutState {
  payoutId: string;
  paymentAccountId: string;
  amountCents: number;
  status: PayoutStatus;
  gatewayTransactionId: string | null;
}

export interface CreatorAccountState {
  earnings: Record<string, EarningState>;
  paymentAccounts: Record<string, PaymentAccountState>;
  payouts: Record<string, PayoutState>;
  /** Share reversals taken from the available balance, including what was carried below zero. */
  deductedCents: number;
  /** The refunds and disputes already reversed (their reversal ids). */
  reversals: string[];
}

export type CreatorAccountCommand =
  | {
      type: 'CreditEarnings';
      creatorId: string;
      source: EarningsSource;
      reference: string;
      payerId: string | null;
      grossCents: number;
      occurredAt: Date;
    }
  | { type: 'ReverseEarnings'; creatorId: string; reference: string; reason: string; now: Date }
  | {
      type: 'ReverseCreatorShare';
      creatorId: string;
      reference: string;
      reversalId: string;
      cause: ShareReversalCause;
      /** What the payer got back of the sale this time. */
      grossCents: number;
      reason: string;
      now: Date;
    }
  | {
      type: 'AddPaymentAccount';
      creatorId: string;
      paymentAccountId: string;
      accountType: PaymentAccountType;
      accountHolderName: string;
      bankAccountLast4: string | null;
      routingNumber: string | null;
      stripeAccountId: string | null;
      makeDefault: boolean;
      isVerified: boolean;
      now: Date;
    }
  | {
      type: 'RecordPaymentAccountVerification';
      creatorId: string;
      paymentAccountId: string;
      outcome: { status: 'verified' } | { status: 'failed'; failureReason: string };
      now: Date;
    }
  | {
      type: 'RequestPayout';
      creatorId: string;
      payoutId: string;
      paymentAccountId: string;
      amountCents: number;
      now: Date;
    }
  | {
      type: 'StartPayoutProcessing';
      creatorId: string;
      payoutId: string;
      gatewayTransactionId: string;
      staffId: string | null;
      now: Date;
    }
  | { type: 'CompletePayout'; creatorId: string; payoutId: string; staffId: string | null; now: Date }
  | { type: 'FailPayout'; creatorId: string; payoutId: string; reason: string; staffId: string | null; now: Date }
  | { type: 'CancelPayout'; creatorId: string; payoutId: string; reason: string; staffId: string | null; now: Date };

export const initialCreatorAccount: CreatorAccountState = {
  earnings: {},
  paymentAccounts: {},
  payouts: {},
  deductedCents: 0,
  reversals: [],
};

/** A payout that still holds its amount (not failed or cancelled). */
const holdsFunds = (payout: PayoutState) => payout.status !== 'failed' && payout.status !== 'cancelled';

export interface CreatorBalances {
  availableCents: number;
  pendingCents: number;
  totalEarningsCents: number;
  /** When the next pending earnings become available; null when nothing is pending. */
  nextAvailableAt: string | null;
}

/**
 * Balances at `now`: earnings past their hold (less what reversals cut from them while pending),
 * minus what payouts hold and what reversals took from the available balance, are available;
 * that can be below zero (a reversal carried against future earnings).
 */
export function balancesAt(state: CreatorAccountState, now: Date): CreatorBalances {
  const nowIso = now.toISOString();
  let released = 0;
  let pendingCents = 0;
  let totalEarningsCents = 0;
  let nextAvailableAt: string | null = null;
  for (const earning of Object.values(state.earnings)) {
    if (earning.reversed) continue;
    totalEarningsCents += earning.creatorShareCents - earning.reversedShareCents;
    const left = earning.creatorShareCents - earning.cutCents;
    if (earning.availableAt <= nowIso) released += left;
    else {
      pendingCents += left;
      if (nextAvailableAt === null || earning.availableAt < nextAvailableAt) nextAvailableAt = earning.availableAt;
    }
  }
  const held = Object.values(state.payouts)
    .filter(holdsFunds)
    .reduce((sum, payout) => sum + payout.amountCents, 0);
  return { availableCents: released - held - state.deductedCents, pendingCents, totalEarningsCents, nextAvailableAt };
}

function evolve(state: CreatorAccountState, event: CreatorAccountEvent): CreatorAccountState {
  switch (event.type) {
    case 'EarningsCredited': {
      const { reference, grossCents, creatorShareCents, platformFeeCents, availableAt } = event.data;
      return {
        ...state,
        earnings: {
          ...state.earnings,
          [reference]: {
            grossCents,
            creatorShareCents,
            platformFeeCents,
            availableAt,
            reversed: false,
            cutCents: 0,
            reversedGrossCents: 0,
            reversedShareCents: 0,
          },
        },
      };
    }
    case 'CreatorShareReversed':
      return applyShareReversal(state, event.data);
    case 'EarningsReversed': {
      const earning = state.earnings[event.data.reference];
      if (!earning) return state;
      return { ...state, earnings: { ...state.earnings, [event.data.reference]: { ...earning, reversed: true } } };
    }
    case 'PaymentAccountAdded': {
      const {
        paymentAccountId,
        type,
        isDefault,
        isVerified,
        stripeAccountId,
        bankAccountLast4,
        routingNumber,
        addedAt,
      } = event.data;
      const accounts: Record<string, PaymentAccountState> = {};
      for (const [id, account] of Object.entries(state.paymentAccounts))
        accounts[id] = isDefault ? { ...account, isDefault: false } : account;
      accounts[paymentAccountId] = {
        paymentAccountId,
        type,
        isDefault,
        isVerified,
        verificationFailed: false,
        addedAt,
        stripeAccountId,
        bankAccountLast4,
        routingNumber,
      };
      return { ...state, paymentAccounts: accounts };
    }
    case 'PaymentAccountVerified':
      return withAccount(state, event.data.paymentAccountId, { isVerified: true });
    case 'PaymentAccountVerificationFailed':
      return withAccount(state, event.data.paymentAccountId, { verificationFailed: true });
    case 'PayoutRequested': {
      const { payoutId, paymentAccountId, amountCents } = event.data;
      return {
        ...state,
        payouts: {
          ...state.payouts,
          [payoutId]: { payoutId, paymentAccountId, amountCents, status: 'pending', gatewayTransactionId: null },
        },
      };
    }
    case 'PayoutProcessingStarted':
      return withPayout(state, event.data.payoutId, {
        status: 'processing',
        gatewayTransactionId: event.data.gatewayTransactionId,
      });
    case 'PayoutCompleted':
      return withPayout(state, event.data.payoutId, { status: 'completed' });
    case 'PayoutFailed':
      return withPayout(state, event.data.payoutId, { status: 'failed' });
    case 'PayoutCancelled':
      return withPayout(state, event.data.payoutId, { status: 'cancelled' });
    default:
      return state;
  }
}

function applyShareReversal(state: CreatorAccountState, d: CreatorShareReversedData): CreatorAccountState {
  const earnings = { ...state.earnings };
  const sale = earnings[d.reference];
  if (sale)
    earnings[d.reference] = {
      ...sale,
      reversedGrossCents: sale.reversedGrossCents + d.grossCents,
      reversedShareCents: sale.reversedShareCents + d.creatorShareCents,
    };
  for (const cut of d.fromPending) {
    const earning = earnings[cut.reference];
    if (earning) earnings[cut.reference] = { ...earning, cutCents: earning.cutCents + cut.cents };
  }
  return {
    ...state,
    earnings,
    deductedCents: state.deductedCents + d.fromAvailableCents + d.carriedCents,
    reversals: [...state.reversals, d.reversalId],
  };
}

function withAccount(
  state: CreatorAccountState,
  paymentAccountId: string,
  change: Partial<PaymentAccountState>,
): CreatorAccountState {
  const account = state.paymentAccounts[paymentAccountId];
  if (!account) return state;
  return { ...state, paymentAccounts: { ...state.paymentAccounts, [paymentAccountId]: { ...account, ...change } } };
}

/** Pending until the processor decides; then verified or failed (both final). */
export const isPendingVerification = (account: PaymentAccountState): boolean =>
  !account.isVerified && !account.verificationFailed;

function withPayout(state: CreatorAccountState, payoutId: string, change: Partial<PayoutState>): CreatorAccountState {
  const payout = state.payouts[payoutId];
  if (!payout) return state;
  return { ...state, payouts: { ...state.payouts, [payoutId]: { ...payout, ...change } } };
}

function payoutIn(state: CreatorAccountState, payoutId: string, allowed: PayoutStatus[], action: string): PayoutState {
  const payout = state.payouts[payoutId];
  if (!payout) throw refuse.notFound('Payout not found');
  if (!allowed.includes(payout.status))
    throw refuse.conflict(`A ${payout.status} payout cannot be ${action}`, { status: payout.status });
  return payout;
}

function decide(command: CreatorAccountCommand, state: CreatorAccountState): CreatorAccountEvent[] {
  const creatorId = command.creatorId;
  switch (command.type) {
    case 'CreditEarnings': {
      if (state.earnings[command.reference]) return []; // already credited: idempotent by reference
      if (!Number.isSafeInteger(command.grossCents) || command.grossCents <= 0)
        throw refuse.validation('Earnings must be a positive number of cents');
      const { creatorShareCents, platformFeeCents } = splitEarnings(command.grossCents);
      return [
        {
          type: 'EarningsCredited',
          data: {
            creatorId,
            source: command.source,
            reference: command.reference,
            payerId: command.payerId,
            grossCents: command.grossCents,
            creatorShareCents,
            platformFeeCents,
            occurredAt: command.occurredAt.toISOString(),
            availableAt: availableAtFor(command.occurredAt).toISOString(),
          },
        },
      ];
    }
    case 'ReverseEarnings': {
      const earning = state.earnings[command.reference];
      if (!earning) throw refuse.notFound('Earnings not found');
      if (earning.reversed) return [];
      return [
        {
          type: 'EarningsReversed',
          data: {
            creatorId,
            reference: command.reference,
            creatorShareCents: earning.creatorShareCents,
            platformFeeCents: earning.platformFeeCents,
            reason: command.reason,
            occurredAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'ReverseCreatorShare': {
      if (state.reversals.includes(command.reversalId)) return [];
      const earning = state.earnings[command.reference];
      if (!earning) throw refuse.notFound('Earnings not found');
      const plan = planShareReversal(state.earnings, balancesAt(state, command.now).availableCents, command);
      if (!plan) return [];
      return [
        {
          type: 'CreatorShareReversed',
          data: {
            creatorId,
            reference: command.reference,
            reversalId: command.reversalId,
            cause: command.cause,
            reason: command.reason,
            occurredAt: command.now.toISOString(),
            ...plan,
          },
        },
      ];
    }
    case 'AddPaymentAccount': {
      if (state.paymentAccounts[command.paymentAccountId]) return [];
      const first = Object.keys(state.paymentAccounts).length === 0;
      return [
        {
          type: 'PaymentAccountAdded',
          data: {
            creatorId,
            paymentAccountId: command.paymentAccountId,
            type: command.accountType,
            accountHolderName: command.accountHolderName,
            bankAccountLast4: command.bankAccountLast4,
            routingNumber: command.routingNumber,
            stripeAccountId: command.stripeAccountId,
            isDefault: first || command.makeDefault,
            isVerified: command.isVerified,
            addedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'RecordPaymentAccountVerification': {
      const account = state.paymentAccounts[command.paymentAccountId];
      if (!account) throw refuse.notFound('Payment account not found');
      if (!isPendingVerification(account)) return []; // already decided: a repeated check writes nothing
      const { paymentAccountId } = command;
      if (command.outcome.status === 'verified')
        return [
          {
            type: 'PaymentAccountVerified',
            data: { creatorId, paymentAccountId, verifiedAt: command.now.toISOString() },
          },
        ];
      return [
        {
          type: 'PaymentAccountVerificationFailed',
          data: {
            creatorId,
            paymentAccountId,
            reason: command.outcome.failureReason,
            failedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'RequestPayout': {
      const account = state.paymentAccounts[command.paymentAccountId];
      if (!account) throw refuse.forbidden('This payment account does not belong to you');
      if (account.verificationFailed)
        throw refuse.validation('This payment account could not be verified', {
          paymentAccountId: 'Payment account could not be verified',
        });
      if (!account.isVerified)
        throw refuse.validation('This payment account is pending verification', {
          paymentAccountId: 'Payment account is pending verification',
        });
      const { availableCents } = balancesAt(state, command.now);
      if (availableCents <= 0)
        throw refuse.validation('No available balance to withdraw', { amount: 'No available balance to withdraw' });
      if (command.amountCents !== availableCents) {
        throw refuse.validation('The payout amount must be the entire available balance', {
          amount: 'The payout amount must be the entire available balance',
        });
      }
      const { processingFeeCents, netAmountCents } = payoutFee(availableCents);
      return [
        {
          type: 'PayoutRequested',
          data: {
            creatorId,
            payoutId: command.payoutId,
            paymentAccountId: command.paymentAccountId,
            amountCents: availableCents,
            processingFeeCents,
            netAmountCents,
            currency: 'USD',
            requestedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'StartPayoutProcessing': {
      payoutIn(state, command.payoutId, ['pending'], 'processed');
      return [
        {
          type: 'PayoutProcessingStarted',
          data: {
            creatorId,
            payoutId: command.payoutId,
            gatewayTransactionId: command.gatewayTransactionId,
            staffId: command.staffId,
            startedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'CompletePayout': {
      const payout = payoutIn(state, command.payoutId, ['processing'], 'completed');
      return [
        {
          type: 'PayoutCompleted',
          data: {
            creatorId,
            payoutId: command.payoutId,
            gatewayTransactionId: payout.gatewayTransactionId,
            staffId: command.staffId,
            processedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'FailPayout': {
      payoutIn(state, command.payoutId, ['processing'], 'failed');
      return [
        {
          type: 'PayoutFailed',
          data: {
            creatorId,
            payoutId: command.payoutId,
            reason: command.reason,
            staffId: command.staffId,
            failedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'CancelPayout': {
      payoutIn(state, command.payoutId, ['pending', 'processing'], 'cancelled');
      return [
        {
          type: 'PayoutCancelled',
          data: {
            creatorId,
            payoutId: command.payoutId,
            reason: command.reason,
            staffId: command.staffId,
            cancelledAt: command.now.toISOString(),
          },
        },
      ];
    }
  }
}

export const creatorAccountDecider: Decider<CreatorAccountCommand, CreatorAccountState, CreatorAccountEvent> = {
  initialState: initialCreatorAccount,
  evolve,
  decide,
};
