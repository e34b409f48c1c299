import { CREATOR_SALE_EVENT_TYPES, creatorSaleOf } from '../creators/sales';
import type { CreatorSubscriptionRenewed } from '../creators/events';
import type { CryptoConversionCompletedData } from '../crypto/events';
import type { RecordedEvent } from '../event-store/port';
import type { MessageUnlocked } from '../messaging/events';
import type { PaymentCapturedData, PaymentRefundedData } from '../payments/events';
import type { EarningsCreditedData } from '../payouts/events';
import {
  flowOfCardPayment,
  flowOfMovement,
  flowReference,
  spendReturnedBy,
  type CreatorSaleFlow,
  type MoneyFlow,
} from '../shared/money-flows';
import type { TipGiven } from '../tips/events';
import type { BalanceMovement } from '../wallet/events';

/**
 * Money taken for something must get that something, or be given back (DESIGN §4: flows that
 * span aggregates complete or compensate). Each money event that pays for an effect on another
 * stream opens an obligation; the effect (or a refund) closes it. Pure: fed the log in order,
 * it says which obligations are still open.
 *
 * | money moved                                   | closed by                                            |
 * |-----------------------------------------------|------------------------------------------------------|
 * | card payment for membership (PaymentCaptured) | MembershipActivated / MembershipRenewed, or a refund |
 * | balance spend `membership:<purchaseId>`       | MembershipActivated for that purchase                |
 * | balance spend `messageUnlock:<messageId>`     | MessageUnlocked                                      |
 * | balance spend `tip:<tipId>`                   | TipGiven                                             |
 * | balance spend `creatorSubscription:<renewal>` | CreatorSubscriptionRenewed, or its `:returned` credit |
 * | completed crypto conversion                   | the balance credit `conversion:<transactionId>`      |
 * | tier charge, unlock, tip (a creator sale)     | the creator's EarningsCredited for the sale          |
 */

export interface Obligation {
  key: string;
  /** What the money was for, and what is owed for it. */
  paidFor: string;
  owed: string;
  userId: string;
  amountCents: number;
  eventId: string;
  eventType: string;
  streamId: string;
  occurredAt: string;
}

/** The events that open or close obligations: these, and every creator sale's event (`CREATOR_SALES`). */
export const EFFECT_EVENT_TYPES: string[] = [
  ...new Set([
    'PaymentCaptured',
    'PaymentRefunded',
    'WalletDebited',
    'WalletCredited',
    'MembershipActivated',
    'MembershipRenewed',
    'MessageUnlocked',
    'CryptoConversionCompleted',
    'EarningsCredited',
    ...CREATOR_SALE_EVENT_TYPES,
  ]),
];

const whenOf = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;

type Opened = Omit<Obligation, 'eventId' | 'eventType' | 'streamId' | 'occurredAt'>;
type Owing = { paidFor: string; owed: string };

/**
 * What each money flow's money is owed, by how it was paid (null: it is never paid that way, or
 * owes nothing); a creator sale (a flow with an earnings source) is owed the creator's earnings.
 */
export const FLOW_OBLIGATIONS = {
  site_plan: {
    card: (requestType: string): Owing => ({
      paidFor: `membership (${requestType})`,
      owed: 'membership time or a refund',
    }),
    balanceSpend: { paidFor: 'a site plan from the balance', owed: 'membership time' },
    creatorSale: null,
  },
  tier_subscription: {
    card: null,
    balanceSpend: { paidFor: 'a tier renewal from the balance', owed: 'the renewed period or the money back' },
    creatorSale: 'a tier subscription (creator sale)',
  },
  message_unlock: {
    card: null,
    balanceSpend: { paidFor: 'a message unlock', owed: 'the unlocked message' },
    creatorSale: 'a message unlock (creator sale)',
  },
  crypto_conversion: { card: null, balanceSpend: null, creatorSale: null },
  tip: {
    card: null,
    balanceSpend: { paidFor: 'a tip from the balance', owed: 'the tip given to the creator' },
    creatorSale: 'a tip (creator sale)',
  },
} as const satisfies {
  [F in MoneyFlow]: {
    card: ((requestType: string) => Owing) | null;
    balanceSpend: Owing | null;
    creatorSale: F extends CreatorSaleFlow ? string : null;
  };
};

/** The obligations an event opens, and the keys it closes. */
export function obligationsOf(event: RecordedEvent): { opens: Opened[]; closes: string[] } {
  // A creator sale (tier subscription, unlocked message) is owed the creator's earnings.
  const sale = creatorSaleOf(event);
  const sold: Opened[] = sale
    ? [
        {
          key: `earnings:${sale.reference}`,
          paidFor: FLOW_OBLIGATIONS[sale.flow].creatorSale,
          owed: "the creator's earnings",
          userId: sale.creatorId,
          amountCents: sale.grossCents,
        },
      ]
    : [];
  switch (event.type) {
    case 'PaymentCaptured': {
      const d = event.data as PaymentCapturedData;
      const flow = flowOfCardPayment(String(d.requestType));
      const owing = flow ? FLOW_OBLIGATIONS[flow].card : null;
      if (!flow || !owing) return { opens: [], closes: [] };
      return {
        opens: [
          {
            key: flowReference(flow, d.paymentId),
            ...owing(String(d.requestType)),
            userId: d.userId,
            amountCents: d.amountCents,
          },
        ],
        closes: [],
      };
    }
    case 'PaymentRefunded':
      return { opens: [], closes: [flowReference('site_plan', (event.data as PaymentRefundedData).paymentId)] };
    case 'WalletDebited': {
      const d = event.data as BalanceMovement;
      // Only a spend that names its flow and what it bought (`membership:<purchaseId>`) can be followed.
      const named = flowOfMovement(d);
      const owing = named && named.id !== null ? FLOW_OBLIGATIONS[named.flow].balanceSpend : null;
      if (!owing) return { opens: [], closes: [] };
      return { opens: [{ userId: d.userId, amountCents: d.amountCents, key: d.reference, ...owing }], closes: [] };
    }
    case 'WalletCredited': {
      // A credit closes what it pays (a conversion) or the spend it gives back (`<spend>:returned`).
      const { reference } = event.data as BalanceMovement;
      const returned = spendReturnedBy(reference);
      return { opens: [], closes: returned ? [reference, returned] : [reference] };
    }
    case 'CreatorSubscriptionRenewed': {
      const d = event.data as CreatorSubscriptionRenewed['data'];
      const paid = d.paidFrom === 'balance' ? [flowReference('tier_subscription', d.renewalId)] : [];
      return { opens: sold, closes: paid };
    }
    case 'MembershipActivated':
    case 'MembershipRenewed':
      return { opens: [], closes: [flowReference('site_plan', (event.data as { paymentId: string }).paymentId)] };
    case 'MessageUnlocked':
      return {
        opens: sold,
        closes: [flowReference('message_unlock', (event.data as MessageUnlocked['data']).messageId)],
      };
    case 'CryptoConversionCompleted': {
      const d = event.data as CryptoConversionCompletedData;
      return {
        opens: [
          {
            key: flowReference('crypto_conversion', d.transactionId),
            paidFor: 'a completed crypto conversion',
            owed: 'the balance credit',
            userId: d.userId,
            amountCents: d.netCents,
          },
        ],
        closes: [],
      };
    }
    case 'TipGiven':
      return { opens: sold, closes: [flowReference('tip', (event.data as TipGiven['data']).tipId)] };
    case 'EarningsCredited':
      return { opens: [], closes: [`earnings:${(event.data as EarningsCreditedData).reference}`] };
    default:
      return { opens: sold, closes: [] };
  }
}

/** Feed it the log (any order within reason: a close seen before its open still counts). */
export function obligationTracker() {
  const open = new Map<string, Obligation>();
  const closed = new Set<string>();
  return {
    observe(event: RecordedEvent): void {
      const { opens, closes } = obligationsOf(event);
      for (const key of closes) closed.add(key);
      for (const o of opens)
        if (!open.has(o.key))
          open.set(o.key, {
            ...o,
            eventId: event.eventId,
            eventType: event.type,
            streamId: event.streamId,
            occurredAt: whenOf(event),
          });
    },
    /** Obligations without their effect: stranded when older than `graceMs` before `now`, else in flight. */
    outstanding(now: Date, graceMs: number): { stranded: Obligation[]; inFlight: Obligation[] } {
      const outstanding = [...open.values()].filter((o) => !closed.has(o.key));
      const recent = (o: Obligation) => now.getTime() - Date.parse(o.occurredAt) < graceMs;
      return { stranded: outstanding.filter((o) => !recent(o)), inFlight: outstanding.filter(recent) };
    },
  };
}
