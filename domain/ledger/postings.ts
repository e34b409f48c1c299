import type { RecordedEvent } from '../event-store/port';
import type { CryptoConversionCompletedData, CryptoConversionRequestedData } from '../crypto/events';
import type {
  CreatorSubscriptionRefunded,
  CreatorSubscriptionRenewed,
  CreatorSubscriptionStarted,
} from '../creators/events';
import type {
  ChargeDisputedData,
  ChargeRefundedData,
  PaymentCapturedData,
  PaymentRefundedData,
} from '../payments/events';
import type {
  CreatorShareReversedData,
  EarningsCreditedData,
  EarningsReversedData,
  PayoutCancelledData,
  PayoutCompletedData,
  PayoutFailedData,
  PayoutRequestedData,
} from '../payouts/events';
import { flowOfCardPayment, flowOfMovement, flowReference, type MoneyFlow } from '../shared/money-flows';
import type { TipGiven } from '../tips/events';
import type { BalanceMovement } from '../wallet/events';
import { LEDGER_ACCOUNTS as A, type LedgerAccount, type LedgerKind } from './accounts';

/**
 * The mapping of money events to double-entry transactions. Every transaction's debits equal
 * its credits. Pure: what it must remember across events (a conversion's fee, a payout's
 * amounts, an earning's hold) it asks of `memory` and hands back in `remember`.
 */

export interface Posting {
  account: LedgerAccount;
  owner: string | null;
  debitCents: number;
  creditCents: number;
}

export interface LedgerTransaction {
  id: string;
  eventId: string;
  eventType: string;
  streamId: string;
  kind: LedgerKind;
  /** The member or creator the money belongs to. */
  userId: string | null;
  reference: string | null;
  description: string;
  occurredAt: string;
  /** When it counts: a release of held earnings counts when the hold ends. */
  effectiveAt: string;
  postings: Posting[];
}

export interface ConversionFact {
  feeCents: number;
}
export interface PayoutFact {
  amountCents: number;
  processingFeeCents: number;
  netAmountCents: number;
}
/**
 * When an earning's hold ends, and the id of the release its reversal during the hold cancels;
 * `releaseCents`: what that release makes available (less what share reversals cut from it).
 */
export interface EarningFact {
  availableAt: string;
  releaseId: string;
  releaseCents?: number;
}

export type Fact =
  | { kind: 'conversion'; key: string; value: ConversionFact }
  | { kind: 'payout'; key: string; value: PayoutFact }
  | { kind: 'earning'; key: string; value: EarningFact }
  /** A card refund already posted (by gateway refund id): the same refund seen twice posts once. */
  | { kind: 'card_refund'; key: string; value: { posted: true } };

export interface LedgerMemory {
  get<K extends Fact['kind']>(kind: K, key: string): Promise<Extract<Fact, { kind: K }>['value'] | undefined>;
}

export interface LedgerEffect {
  transactions: LedgerTransaction[];
  remember: Fact[];
  /** Transactions that no longer happen (a release of earnings reversed during the hold). */
  cancel: string[];
}

/** How a money flow's payment is posted: its kind, and the account on the other side. */
interface FlowPosting {
  kind: LedgerKind;
  account: LedgerAccount;
}

/**
 * Each money flow's postings (`domain/shared/money-flows.ts`); null where the flow never moves
 * money that way. Money of no flow is posted as `card_charge` (to other revenue),
 * `balance_spend` (to other revenue) or `balance_credit` (from member credits).
 */
export const FLOW_POSTINGS = {
  site_plan: {
    /** A card charge: debit gateway clearing, credit the account. */
    card: { kind: 'site_plan_charge', account: A.sitePlanRevenue },
    /** A spend from the member's balance: debit the balance, credit the account. */
    balanceSpend: { kind: 'site_plan_charge', account: A.sitePlanRevenue },
    /** A credit to the member's balance: debit the account, credit the balance. */
    balanceCredit: null,
  },
  tier_subscription: {
    card: { kind: 'tier_charge', account: A.creatorSalesClearing },
    /** A renewal from the balance; its money goes back through the sales clearing when returned. */
    balanceSpend: { kind: 'tier_charge', account: A.creatorSalesClearing },
    balanceCredit: { kind: 'refund', account: A.creatorSalesClearing },
  },
  message_unlock: {
    card: null,
    balanceSpend: { kind: 'message_unlock', account: A.creatorSalesClearing },
    balanceCredit: null,
  },
  crypto_conversion: {
    card: null,
    balanceSpend: null,
    balanceCredit: { kind: 'conversion_credit', account: A.conversionClearing },
  },
  tip: {
    card: { kind: 'tip', account: A.creatorSalesClearing },
    balanceSpend: { kind: 'tip', account: A.creatorSalesClearing },
    balanceCredit: null,
  },
} as const satisfies Record<
  MoneyFlow,
  { card: FlowPosting | null; balanceSpend: FlowPosting | null; balanceCredit: FlowPosting | null }
>;

const flowPosting = (
  flow: MoneyFlow | null | undefined,
  how: 'card' | 'balanceSpend' | 'balanceCredit',
): FlowPosting | null => (flow ? FLOW_POSTINGS[flow][how] : null);

export const LEDGER_EVENT_TYPES = [
  'PaymentCaptured',
  'PaymentRefunded',
  'CreatorSubscriptionStarted',
  'CreatorSubscriptionRenewed',
  'ChargeRefunded',
  'ChargeDisputed',
  'CreatorSubscriptionRefunded',
  'CreatorShareReversed',
  'TipGiven',
  'WalletCredited',
  'WalletDebited',
  'CryptoConversionRequested',
  'CryptoConversionCompleted',
  'EarningsCredited',
  'EarningsReversed',
  'PayoutRequested',
  'PayoutCompleted',
  'PayoutFailed',
  'PayoutCancelled',
];

const dr = (account: LedgerAccount, cents: number, owner: string | null = null): Posting => ({
  account,
  owner,
  debitCents: cents,
  creditCents: 0,
});
const cr = (account: LedgerAccount, cents: number, owner: string | null = null): Posting => ({
  account,
  owner,
  debitCents: 0,
  creditCents: cents,
});
const nonZero = (postings: Posting[]) => postings.filter((p) => p.debitCents !== 0 || p.creditCents !== 0);

const whenOf = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export async function ledgerEffect(event: RecordedEvent, memory: LedgerMemory): Promise<LedgerEffect> {
  const effect: LedgerEffect = { transactions: [], remember: [], cancel: [] };
  const tx = (
    kind: LedgerKind,
    fields: {
      userId: string | null;
      reference: string | null;
      description: string;
      occurredAt?: string;
      effectiveAt?: string;
      id?: string;
    },
    postings: Posting[],
  ) => {
    const occurredAt = fields.occurredAt ?? whenOf(event);
    effect.transactions.push({
      id: fields.id ?? event.eventId,
      eventId: event.eventId,
      eventType: event.type,
      streamId: event.streamId,
      kind,
      userId: fields.userId,
      reference: fields.reference,
      description: fields.description,
      occurredAt,
      effectiveAt: fields.effectiveAt ?? occurredAt,
      postings: nonZero(postings),
    });
  };

  switch (event.type) {
    case 'PaymentCaptured': {
      const d = event.data as PaymentCapturedData;
      const posting = flowPosting(flowOfCardPayment(String(d.requestType)), 'card');
      tx(
        posting?.kind ?? 'card_charge',
        {
          userId: d.userId,
          reference: d.paymentId,
          description: `Card charge ${usd(d.amountCents)} (${d.requestType})`,
          occurredAt: d.at,
        },
        [dr(A.gatewayClearing, d.amountCents), cr(posting?.account ?? A.otherRevenue, d.amountCents)],
      );
      break;
    }
    case 'PaymentRefunded': {
      const d = event.data as PaymentRefundedData;
      tx(
        'refund',
        {
          userId: d.userId,
          reference: d.paymentId,
          description: `Card refund ${usd(d.amountCents)}: ${d.reason}`,
          occurredAt: d.at,
        },
        [dr(A.refunds, d.amountCents), cr(A.gatewayClearing, d.amountCents)],
      );
      break;
    }
    case 'ChargeRefunded':
    case 'ChargeDisputed':
    case 'CreatorSubscriptionRefunded': {
      // A period paid from the balance was given back by its wallet credit (WalletCredited).
      if (event.type === 'CreatorSubscriptionRefunded' && (event.data as CreatorSubscriptionRefunded['data']).paidFrom)
        break;
      const given = givenBack(event);
      const once = given.refundId ? { kind: 'card_refund' as const, key: given.refundId } : null;
      if (once && (await memory.get(once.kind, once.key))) break;
      if (once) effect.remember.push({ ...once, value: { posted: true } });
      // A creator sale's money goes back through the sales clearing (its share reversal empties it).
      const from = given.creatorSale ? A.creatorSalesClearing : A.refunds;
      tx(given.feeCents === null ? 'refund' : 'chargeback', given.fields, [
        dr(from, given.amountCents),
        dr(A.chargebackFees, given.feeCents ?? 0),
        cr(A.gatewayClearing, given.amountCents + (given.feeCents ?? 0)),
      ]);
      break;
    }
    case 'CreatorShareReversed': {
      const d = event.data as CreatorShareReversedData;
      const fromPending = d.fromPending.reduce((sum, cut) => sum + cut.cents, 0);
      tx(
        'creator_share_reversal',
        {
          userId: d.creatorId,
          reference: d.reference,
          description: `Creator share reversed (${d.cause}): ${usd(d.creatorShareCents)}, platform fee ${usd(d.platformFeeCents)}: ${d.reason}`,
          occurredAt: d.occurredAt,
        },
        [
          dr(A.creatorPending, fromPending, d.creatorId),
          dr(A.creatorAvailable, d.fromAvailableCents + d.carriedCents, d.creatorId),
          dr(A.platformFees, d.platformFeeCents),
          cr(A.creatorSalesClearing, d.grossCents),
        ],
      );
      // An earning cut while pending releases that much less when its hold ends.
      for (const cut of d.fromPending) {
        const key = `${d.creatorId}:${cut.reference}`;
        const earning = await memory.get('earning', key);
        if (!earning) continue;
        effect.cancel.push(earning.releaseId);
        const releaseId = `${event.eventId}:release:${cut.reference}`;
        const releaseCents = (earning.releaseCents ?? 0) - cut.cents;
        effect.remember.push({ kind: 'earning', key, value: { ...earning, releaseId, releaseCents } });
        tx(
          'earnings_release',
          {
            id: releaseId,
            userId: d.creatorId,
            reference: cut.reference,
            description: `Hold ended: ${usd(releaseCents)} available (after a reversal)`,
            occurredAt: d.occurredAt,
            effectiveAt: earning.availableAt,
          },
          [dr(A.creatorPending, releaseCents, d.creatorId), cr(A.creatorAvailable, releaseCents, d.creatorId)],
        );
      }
      break;
    }
    case 'CreatorSubscriptionStarted': {
      const d = event.data as CreatorSubscriptionStarted['data'];
      const posting = FLOW_POSTINGS.tier_subscription.card;
      if (d.priceCents === 0) break; // a trial: nothing was charged
      tx(
        posting.kind,
        {
          userId: d.subscriberId,
          reference: flowReference('tier_subscription', d.subscriptionId),
          description: `Tier ${d.tierName} ${usd(d.priceCents)} for creator ${d.creatorId}`,
          occurredAt: d.startDate,
        },
        [dr(A.gatewayClearing, d.priceCents), cr(posting.account, d.priceCents)],
      );
      break;
    }
    case 'CreatorSubscriptionRenewed': {
      const d = event.data as CreatorSubscriptionRenewed['data'];
      const posting = FLOW_POSTINGS.tier_subscription.card;
      if (d.paidFrom === 'balance') break; // posted by its spend (WalletDebited)
      tx(
        posting.kind,
        {
          userId: d.subscriberId,
          reference: flowReference('tier_subscription', d.renewalId),
          description: `Tier ${d.tierName} ${usd(d.priceCents)} renewed for creator ${d.creatorId}`,
          occurredAt: d.renewedAt,
        },
        [dr(A.gatewayClearing, d.priceCents), cr(posting.account, d.priceCents)],
      );
      break;
    }
    case 'TipGiven': {
      // A tip from the balance was posted by its spend (WalletDebited); a card tip is its charge.
      const d = event.data as TipGiven['data'];
      const posting = FLOW_POSTINGS.tip.card;
      if (d.source !== 'card') break;
      tx(
        posting.kind,
        {
          userId: d.tipperId,
          reference: flowReference('tip', d.tipId),
          description: `Tip ${usd(d.amountCents)} by card for creator ${d.creatorId}`,
          occurredAt: d.givenAt,
        },
        [dr(A.gatewayClearing, d.amountCents), cr(posting.account, d.amountCents)],
      );
      break;
    }
    case 'WalletDebited': {
      const d = event.data as BalanceMovement;
      const posting = flowPosting(flowOfMovement(d)?.flow, 'balanceSpend');
      tx(
        posting?.kind ?? 'balance_spend',
        { userId: d.userId, reference: d.reference, description: `Balance spent ${usd(d.amountCents)} (${d.reason})` },
        [dr(A.memberBalance, d.amountCents, d.userId), cr(posting?.account ?? A.otherRevenue, d.amountCents)],
      );
      break;
    }
    case 'WalletCredited': {
      const d = event.data as BalanceMovement;
      const posting = flowPosting(flowOfMovement(d)?.flow, 'balanceCredit');
      tx(
        posting?.kind ?? 'balance_credit',
        {
          userId: d.userId,
          reference: d.reference,
          description: `Balance credited ${usd(d.amountCents)} (${d.reason})`,
        },
        [dr(posting?.account ?? A.memberCredits, d.amountCents), cr(A.memberBalance, d.amountCents, d.userId)],
      );
      break;
    }
    case 'CryptoConversionRequested': {
      const d = event.data as CryptoConversionRequestedData;
      effect.remember.push({ kind: 'conversion', key: d.transactionId, value: { feeCents: d.feeCents } });
      break;
    }
    case 'CryptoConversionCompleted': {
      const d = event.data as CryptoConversionCompletedData;
      const known = await memory.get('conversion', d.transactionId);
      const feeCents = known?.feeCents ?? 0;
      const grossCents = d.netCents + feeCents;
      tx(
        'conversion',
        {
          userId: d.userId,
          reference: flowReference('crypto_conversion', d.transactionId),
          description: `Conversion of ${d.cryptoAmount} crypto: ${usd(grossCents)}, fee ${usd(feeCents)}`,
          occurredAt: d.completedAt,
        },
        [dr(A.cryptoCustody, grossCents), cr(A.conversionFees, feeCents), cr(A.conversionClearing, d.netCents)],
      );
      break;
    }
    case 'EarningsCredited': {
      const d = event.data as EarningsCreditedData;
      const releaseId = `${event.eventId}:release`;
      effect.remember.push({
        kind: 'earning',
        key: `${d.creatorId}:${d.reference}`,
        value: { availableAt: d.availableAt, releaseId, releaseCents: d.creatorShareCents },
      });
      tx(
        'earnings',
        {
          userId: d.creatorId,
          reference: d.reference,
          description: `Earnings from ${d.source}: ${usd(d.grossCents)} (creator ${usd(d.creatorShareCents)}, platform ${usd(d.platformFeeCents)})`,
          occurredAt: d.occurredAt,
        },
        [
          dr(A.creatorSalesClearing, d.grossCents),
          cr(A.creatorPending, d.creatorShareCents, d.creatorId),
          cr(A.platformFees, d.platformFeeCents),
        ],
      );
      tx(
        'earnings_release',
        {
          id: releaseId,
          userId: d.creatorId,
          reference: d.reference,
          description: `Hold ended: ${usd(d.creatorShareCents)} available`,
          occurredAt: d.occurredAt,
          effectiveAt: d.availableAt,
        },
        [
          dr(A.creatorPending, d.creatorShareCents, d.creatorId),
          cr(A.creatorAvailable, d.creatorShareCents, d.creatorId),
        ],
      );
      break;
    }
    case 'EarningsReversed': {
      const d = event.data as EarningsReversedData;
      const earning = await memory.get('earning', `${d.creatorId}:${d.reference}`);
      const duringHold = earning ? d.occurredAt < earning.availableAt : false;
      if (earning && duringHold) effect.cancel.push(earning.releaseId);
      const gross = d.creatorShareCents + d.platformFeeCents;
      tx(
        'earnings_reversal',
        {
          userId: d.creatorId,
          reference: d.reference,
          description: `Earnings reversed: ${d.reason}`,
          occurredAt: d.occurredAt,
        },
        [
          dr(duringHold ? A.creatorPending : A.creatorAvailable, d.creatorShareCents, d.creatorId),
          dr(A.platformFees, d.platformFeeCents),
          cr(A.creatorSalesClearing, gross),
        ],
      );
      break;
    }
    case 'PayoutRequested': {
      const d = event.data as PayoutRequestedData;
      effect.remember.push({
        kind: 'payout',
        key: d.payoutId,
        value: {
          amountCents: d.amountCents,
          processingFeeCents: d.processingFeeCents,
          netAmountCents: d.netAmountCents,
        },
      });
      tx(
        'payout_request',
        {
          userId: d.creatorId,
          reference: d.payoutId,
          description: `Payout requested ${usd(d.amountCents)}`,
          occurredAt: d.requestedAt,
        },
        [dr(A.creatorAvailable, d.amountCents, d.creatorId), cr(A.payoutsInTransit, d.amountCents, d.creatorId)],
      );
      break;
    }
    case 'PayoutCompleted': {
      const d = event.data as PayoutCompletedData;
      const payout = await memory.get('payout', d.payoutId);
      if (!payout) break;
      tx(
        'payout_completion',
        {
          userId: d.creatorId,
          reference: d.payoutId,
          description: `Payout completed: ${usd(payout.netAmountCents)} sent, fee ${usd(payout.processingFeeCents)}`,
          occurredAt: d.processedAt,
        },
        [
          dr(A.payoutsInTransit, payout.amountCents, d.creatorId),
          cr(A.gatewayClearing, payout.netAmountCents),
          cr(A.payoutFees, payout.processingFeeCents),
        ],
      );
      break;
    }
    case 'PayoutFailed':
    case 'PayoutCancelled': {
      const d = event.data as PayoutFailedData | PayoutCancelledData;
      const payout = await memory.get('payout', d.payoutId);
      if (!payout) break;
      const at = 'failedAt' in d ? d.failedAt : d.cancelledAt;
      tx(
        'payout_return',
        {
          userId: d.creatorId,
          reference: d.payoutId,
          description: `Payout ${event.type === 'PayoutFailed' ? 'failed' : 'cancelled'}: ${d.reason}`,
          occurredAt: at,
        },
        [
          dr(A.payoutsInTransit, payout.amountCents, d.creatorId),
          cr(A.creatorAvailable, payout.amountCents, d.creatorId),
        ],
      );
      break;
    }
    default:
      break;
  }
  return effect;
}

/** A refund or chargeback of a card charge, as the ledger posts it. */
function givenBack(event: RecordedEvent) {
  const base = (userId: string, reference: string, description: string, occurredAt: string) => ({
    userId,
    reference,
    description,
    occurredAt,
  });
  if (event.type === 'CreatorSubscriptionRefunded') {
    const d = event.data as CreatorSubscriptionRefunded['data'];
    return {
      refundId: d.gatewayRefundId,
      creatorSale: true,
      amountCents: d.amountCents,
      feeCents: null,
      fields: base(d.subscriberId, d.saleReference, `Money-back refund ${usd(d.amountCents)}: ${d.reason}`, d.at),
    };
  }
  if (event.type === 'ChargeDisputed') {
    const d = event.data as ChargeDisputedData;
    return {
      refundId: null,
      creatorSale: d.charge.saleReference !== null,
      amountCents: d.amountCents,
      feeCents: d.feeCents,
      fields: base(
        d.charge.userId,
        d.charge.chargeId,
        `Chargeback ${usd(d.amountCents)} + fee ${usd(d.feeCents)}: ${d.reason}`,
        d.at,
      ),
    };
  }
  const d = event.data as ChargeRefundedData;
  return {
    refundId: d.gatewayRefundId,
    creatorSale: d.charge.saleReference !== null,
    amountCents: d.amountCents,
    feeCents: null,
    fields: base(d.charge.userId, d.charge.chargeId, `Card refund ${usd(d.amountCents)}: ${d.reason}`, d.at),
  };
}

/** Whether a transaction's debits equal its credits. */
export const isBalanced = (transaction: Pick<LedgerTransaction, 'postings'>) =>
  transaction.postings.reduce((sum, p) => sum + p.debitCents - p.creditCents, 0) === 0;

/** An in-memory memory, for replays outside the database (reconcile, tests). */
export function memoryLedger(): LedgerMemory & { apply(effect: LedgerEffect): void } {
  const facts = new Map<string, unknown>();
  return {
    async get(kind, key) {
      return facts.get(`${kind}:${key}`) as never;
    },
    apply(effect) {
      for (const fact of effect.remember) facts.set(`${fact.kind}:${fact.key}`, fact.value);
    },
  };
}
