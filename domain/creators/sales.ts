import type { MessageUnlocked } from '../messaging/events';
import {
  earningsSourceOf,
  flowReference,
  MONEY_FLOW_NAMES,
  type CreatorSaleFlow,
  type EarningsSource,
  type MoneyFlow,
} from '../shared/money-flows';
import type { CreatorSubscriptionStarted } from './events';

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
  tier_subscription: {
    eventType: 'CreatorSubscriptionStarted',
    read: (d: CreatorSubscriptionStarted['data']) => ({
      saleId: d.subscriptionId,
      creatorId: d.creatorId,
      payerId: d.subscriberId,
      grossCents: d.priceCents,
      occurredAt: d.startDate,
    }),
  },
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
} as const satisfies { [F in MoneyFlow]: F extends CreatorSaleFlow ? SaleRule<never> : null };

const SALE_FLOWS = MONEY_FLOW_NAMES.filter((flow) => CREATOR_SALES[flow] !== null) as CreatorSaleFlow[];

/** The events that make a creator sale. */
export const CREATOR_SALE_EVENT_TYPES: string[] = SALE_FLOWS.map((flow) => CREATOR_SALES[flow].eventType);

export interface CreatorSale extends Omit<SaleFacts, 'saleId'> {
  flow: CreatorSaleFlow;
  source: EarningsSource;
  /** The earnings reference (`creatorSubscription:<id>`, `messageUnlock:<id>`): credited once. */
  reference: string;
}

/** The creator sale an event makes, or null when it makes none. */
export function creatorSaleOf(event: { type: string; data: unknown }): CreatorSale | null {
  const flow = SALE_FLOWS.find((candidate) => CREATOR_SALES[candidate].eventType === event.type);
  if (!flow) return null;
  const { saleId, ...sale } = (CREATOR_SALES[flow].read as (data: unknown) => SaleFacts)(event.data);
  return { ...sale, flow, source: earningsSourceOf(flow), reference: flowReference(flow, saleId) };
}
