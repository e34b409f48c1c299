/**
 * The money flows: why money moves. One union shared by the wallet (the reason and reference
 * of a balance movement), the creator earnings (their source) and the ledger (its posting
 * kinds), so a new flow is a compile error wherever it is not handled yet:
 * - here: the strings it is stored under (reference prefix, balance reason, earnings source);
 * - `domain/ledger/postings.ts` `FLOW_POSTINGS`: how its money is posted;
 * - `domain/ledger/effects.ts` `BALANCE_SPENDS` (and `CREATOR_SALES`): what its money is owed;
 * - `domain/creators/earnings-process.ts` `CREATOR_SALES`: whether and how it credits a creator.
 *
 * The strings are stored in events, which never change: a flow's names here are what the
 * product has always written for it. What a stored movement or payment was for is read back
 * only through `flowOfMovement` and `flowOfCardPayment` below.
 */

interface FlowNames {
  /** The prefix of its references (`<prefix><id>`): the idempotency key of its balance movements and earnings. */
  reference: string;
  /** The reason stored on its balance movements; null: it never moves a member's USD balance. */
  balanceReason: string | null;
  /** The earnings source stored when it credits a creator; null: it is not a creator sale. */
  earningsSource: string | null;
}

export const MONEY_FLOWS = {
  /** The site plan: by card (sign-up, subscribe, renewal) or the 6-month plan from the USD balance. */
  site_plan: { reference: 'membership:', balanceReason: 'site plan: 6 months + 1 free', earningsSource: null },
  /** A creator tier for a month, by card (or a renewal from the USD balance): a creator sale. */
  tier_subscription: {
    reference: 'creatorSubscription:',
    balanceReason: 'creator subscription',
    earningsSource: 'subscription',
  },
  /** A paid message unlocked from the USD balance: a creator sale. */
  message_unlock: { reference: 'messageUnlock:', balanceReason: 'message_unlock', earningsSource: 'message_unlock' },
  /** Stablecoins converted to the USD balance. */
  crypto_conversion: { reference: 'conversion:', balanceReason: 'crypto conversion', earningsSource: null },
  /** A tip to a creator, by card or from the USD balance: a creator sale. */
  tip: { reference: 'tip:', balanceReason: 'tip', earningsSource: 'tip' },
} as const satisfies Record<string, FlowNames>;

export type MoneyFlow = keyof typeof MONEY_FLOWS;
export const MONEY_FLOW_NAMES = Object.keys(MONEY_FLOWS) as MoneyFlow[];

type Names = typeof MONEY_FLOWS;
/** The flows that move a member's USD balance. */
export type BalanceFlow = { [F in MoneyFlow]: Names[F]['balanceReason'] extends string ? F : never }[MoneyFlow];
/** The flows that are a sale for a creator (credited as earnings). */
export type CreatorSaleFlow = { [F in MoneyFlow]: Names[F]['earningsSource'] extends string ? F : never }[MoneyFlow];
/** The `source` of EarningsCredited. */
export type EarningsSource = Names[CreatorSaleFlow]['earningsSource'];

/** `messageUnlock:<id>` and the like: the reference of one payment of a flow. */
export const flowReference = (flow: MoneyFlow, id: string): string => `${MONEY_FLOWS[flow].reference}${id}`;

/** The earnings source a creator sale is stored under. */
export const earningsSourceOf = (flow: CreatorSaleFlow): EarningsSource => MONEY_FLOWS[flow].earningsSource;

/** A balance movement of a flow, as the wallet stores it (reason and reference). */
export function balanceMovement(
  flow: BalanceFlow,
  id: string,
  amountCents: number,
): { amountCents: number; reason: string; reference: string } {
  return { amountCents, reason: MONEY_FLOWS[flow].balanceReason, reference: flowReference(flow, id) };
}

const RETURNED_SUFFIX = ':returned';

/**
 * Money of a balance spend given back to the balance (a renewal that did not take effect, the
 * money-back guarantee on a period paid from the balance): the spend's reference with
 * `:returned`, so the wallet applies it once and the spend's obligation is closed by it.
 */
export function balanceReturn(
  flow: BalanceFlow,
  id: string,
  amountCents: number,
): { amountCents: number; reason: string; reference: string } {
  return { amountCents, reason: `${MONEY_FLOWS[flow].balanceReason} refund`, reference: returnedReference(flow, id) };
}

export const returnedReference = (flow: BalanceFlow, id: string): string =>
  `${flowReference(flow, id)}${RETURNED_SUFFIX}`;

/** The spend a returned movement's reference gives back (`<spend reference>:returned`), else null. */
export const spendReturnedBy = (reference: string): string | null =>
  reference.endsWith(RETURNED_SUFFIX) ? reference.slice(0, -RETURNED_SUFFIX.length) : null;

/** The flow a reference names, and the id after its prefix; null when it names none. */
export function flowOfReference(reference: string): { flow: MoneyFlow; id: string } | null {
  for (const flow of MONEY_FLOW_NAMES) {
    const prefix = MONEY_FLOWS[flow].reference;
    if (reference.startsWith(prefix)) return { flow, id: reference.slice(prefix.length) };
  }
  return null;
}

/**
 * What a stored balance movement was for. The product names the flow in the reference
 * (`messageUnlock:<messageId>`), and then `id` is the rest of it. A movement without such a
 * reference (tests, hand-made data) is read the way the ledger always read it, by its reason
 * (an unlock's reason, or one that speaks of a plan, membership or subscription), with no id.
 */
export function flowOfMovement(movement: {
  reason: string;
  reference: string;
}): { flow: MoneyFlow; id: string | null } | null {
  const named = flowOfReference(movement.reference);
  if (named) return named;
  if (movement.reason === MONEY_FLOWS.message_unlock.balanceReason) return { flow: 'message_unlock', id: null };
  if (/plan|membership|subscri/i.test(`${movement.reason} ${movement.reference}`))
    return { flow: 'site_plan', id: null };
  return null;
}

/** What a stored card payment (PaymentCaptured's requestType) was for; null: no flow (e.g. the age check). */
export function flowOfCardPayment(requestType: string): MoneyFlow | null {
  return requestType.startsWith('membership') ? 'site_plan' : null;
}
