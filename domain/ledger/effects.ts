import type { CryptoConversionCompletedData } from '../crypto/events';
import type { CreatorSubscriptionStarted } from '../creators/events';
import type { RecordedEvent } from '../event-store/port';
import type { MessageUnlocked } from '../messaging/events';
import type { PaymentCapturedData, PaymentRefundedData } from '../payments/events';
import type { EarningsCreditedData } from '../payouts/events';
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
 * | completed crypto conversion                   | the balance credit `conversion:<transactionId>`      |
 * | tier charge, message unlock (a creator sale)  | the creator's EarningsCredited for the sale          |
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

export const EFFECT_EVENT_TYPES = [
  'PaymentCaptured',
  'PaymentRefunded',
  'WalletDebited',
  'WalletCredited',
  'MembershipActivated',
  'MembershipRenewed',
  'MessageUnlocked',
  'CryptoConversionCompleted',
  'CreatorSubscriptionStarted',
  'EarningsCredited',
] as const;

const whenOf = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;

type Opened = Omit<Obligation, 'eventId' | 'eventType' | 'streamId' | 'occurredAt'>;

/** The obligations an event opens, and the keys it closes. */
export function obligationsOf(event: RecordedEvent): { opens: Opened[]; closes: string[] } {
  switch (event.type) {
    case 'PaymentCaptured': {
      const d = event.data as PaymentCapturedData;
      if (!String(d.requestType).startsWith('membership_')) return { opens: [], closes: [] };
      return { opens: [{ key: `membership:${d.paymentId}`, paidFor: `membership (${d.requestType})`, owed: 'membership time or a refund', userId: d.userId, amountCents: d.amountCents }], closes: [] };
    }
    case 'PaymentRefunded':
      return { opens: [], closes: [`membership:${(event.data as PaymentRefundedData).paymentId}`] };
    case 'WalletDebited': {
      const d = event.data as BalanceMovement;
      const base = { userId: d.userId, amountCents: d.amountCents };
      if (d.reference.startsWith('membership:')) return { opens: [{ ...base, key: d.reference, paidFor: 'a site plan from the balance', owed: 'membership time' }], closes: [] };
      if (d.reference.startsWith('messageUnlock:')) return { opens: [{ ...base, key: d.reference, paidFor: 'a message unlock', owed: 'the unlocked message' }], closes: [] };
      return { opens: [], closes: [] };
    }
    case 'WalletCredited':
      return { opens: [], closes: [(event.data as BalanceMovement).reference] };
    case 'MembershipActivated':
    case 'MembershipRenewed':
      return { opens: [], closes: [`membership:${(event.data as { paymentId: string }).paymentId}`] };
    case 'MessageUnlocked': {
      const d = event.data as MessageUnlocked['data'];
      const sale = { key: `earnings:messageUnlock:${d.messageId}`, paidFor: 'a message unlock (creator sale)', owed: "the creator's earnings", userId: d.senderId, amountCents: d.priceCents };
      return { opens: [sale], closes: [`messageUnlock:${d.messageId}`] };
    }
    case 'CryptoConversionCompleted': {
      const d = event.data as CryptoConversionCompletedData;
      return { opens: [{ key: `conversion:${d.transactionId}`, paidFor: 'a completed crypto conversion', owed: 'the balance credit', userId: d.userId, amountCents: d.netCents }], closes: [] };
    }
    case 'CreatorSubscriptionStarted': {
      const d = event.data as CreatorSubscriptionStarted['data'];
      return { opens: [{ key: `earnings:creatorSubscription:${d.subscriptionId}`, paidFor: 'a tier subscription (creator sale)', owed: "the creator's earnings", userId: d.creatorId, amountCents: d.priceCents }], closes: [] };
    }
    case 'EarningsCredited':
      return { opens: [], closes: [`earnings:${(event.data as EarningsCreditedData).reference}`] };
    default:
      return { opens: [], closes: [] };
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
      for (const o of opens) if (!open.has(o.key)) open.set(o.key, { ...o, eventId: event.eventId, eventType: event.type, streamId: event.streamId, occurredAt: whenOf(event) });
    },
    /** Obligations without their effect: stranded when older than `graceMs` before `now`, else in flight. */
    outstanding(now: Date, graceMs: number): { stranded: Obligation[]; inFlight: Obligation[] } {
      const outstanding = [...open.values()].filter((o) => !closed.has(o.key));
      const recent = (o: Obligation) => now.getTime() - Date.parse(o.occurredAt) < graceMs;
      return { stranded: outstanding.filter((o) => !recent(o)), inFlight: outstanding.filter(recent) };
    },
  };
}
