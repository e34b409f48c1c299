import type { MessageUnlocked } from '../messaging/events';
import type { TipGiven } from '../tips/events';
import {
  earningsSourceOf,
  flowReference,
  MONEY_FLOW_NAMES,
  type CreatorSaleFlow,
  type EarningsSource,
  type MoneyFlow,
} from '../shared/money-flows';
import type { CreatorSubscriptionRenewed, CreatorSubscriptionStarted } from './events';

/**
 * Creator sales: the money flows that earn a creator 90% (DESIGN §4), each with the event that
 * makes the sale and how to read it. The creator-earnings process credits them; the ledger's
 * effects check that each was credited. A flow that is a sale (an earnings source in
 * `domain/shared/money-flows.ts`) must have its rule here, any other must be null.
 */

interface SaleFacts {
  /** The sale's id: its earnings reference is the flow's reference for it. */
  saleId: string;
  creatorId: string;
  payerId: string;
  grossCents: number;
  occurredAt: string;
}

interface SaleRule<Data> {
  eventType: string;
  read(data: Data): SaleFacts;
}

export const CREATOR_SALES = {
  // The first period (nothing on a trial: no sale), then each renewal, a sale of its own.
  tier_subscription: [
    {
      eventType: 'CreatorSubscriptionStarted',
      read: (d: CreatorSubscriptionStarted['data']) => ({
        saleId: d.subscriptionId,
        creatorId: d.creatorId,
        payerId: d.subscriberId,
        grossCents: d.priceCents,
        occurredAt: d.startDate,
      }),
    },
    {
      eventType: 'CreatorSubscriptionRenewed',
      read: (d: CreatorSubscriptionRenewed['data']) => ({
        saleId: d.renewalId,
        creatorId: d.creatorId,
        payerId: d.subscriberId,
        grossCents: d.priceCents,
        occurredAt: d.renewedAt,
      }),
    },
  ],
  message_unlock: {
    eventType: 'MessageUnlocked',
    read: (d: MessageUnlocked['data']) => ({
      saleId: d.messageId,
      creatorId: d.senderId,
      payerId: d.receiverId,
      grossCents: d.priceCents,
      occurredAt: d.unlockedAt,
    }),
  },
  site_plan: null,
  crypto_conversion: null,
  tip: {
    eventType: 'TipGiven',
    read: (d: TipGiven['data']) => ({
      saleId: d.tipId,
      creatorId: d.creatorId,
      payerId: d.tipperId,
      grossCents: d.amountCents,
      occurredAt: d.givenAt,
    }),
  },
} as const satisfies { [F in MoneyFlow]: F extends CreatorSaleFlow ? SaleRule<never> | SaleRule<never>[] : null };

const SALE_FLOWS = MONEY_FLOW_NAMES.filter((flow) => CREATOR_SALES[flow] !== null) as CreatorSaleFlow[];

/** A flow's sale rules: one, or one per event that makes its sales. */
const rulesOf = (flow: CreatorSaleFlow): SaleRule<never>[] => [CREATOR_SALES[flow]].flat();

/** The events that make a creator sale. */
export const CREATOR_SALE_EVENT_TYPES: string[] = SALE_FLOWS.flatMap((flow) =>
  rulesOf(flow).map((rule) => rule.eventType),
);

export interface CreatorSale extends Omit<SaleFacts, 'saleId'> {
  flow: CreatorSaleFlow;
  source: EarningsSource;
  /** The earnings reference (`creatorSubscription:<id>`, `messageUnlock:<id>`): credited once. */
  reference: string;
}

/** The creator sale an event makes, or null when it makes none. */
export function creatorSaleOf(event: { type: string; data: unknown }): CreatorSale | null {
  for (const flow of SALE_FLOWS) {
    const rule = rulesOf(flow).find((candidate) => candidate.eventType === event.type);
    if (!rule) continue;
    const { saleId, ...sale } = (rule.read as (data: unknown) => SaleFacts)(event.data);
    // A free period (a trial) sells nothing.
    if (sale.grossCents === 0) return null;
    return { ...sale, flow, source: earningsSourceOf(flow), reference: flowReference(flow, saleId) };
  }
  return null;
}
