/**
 * The ledger's named accounts. Assets (money the platform holds) and expenses are
 * debit-normal; liabilities (what it owes members and creators) and revenue are credit-normal.
 * Per-person accounts carry an owner (member or creator id).
 */
export const LEDGER_ACCOUNTS = {
  /** Card money at the card processor, and paid out to creators (asset). */
  gatewayClearing: 'gateway_clearing',
  /** Stablecoins received from conversions, at their USD value (asset). */
  cryptoCustody: 'crypto_custody',
  /** A completed conversion's net amount until it is credited to the member's balance. */
  conversionClearing: 'conversion_clearing',
  /** A member's spendable USD balance (liability, owner = member). */
  memberBalance: 'member_balance',
  /** Credits to member balances with no known source (e.g. goodwill). */
  memberCredits: 'member_credits',
  /** Creator sales (tier charges, message unlocks) until they are split into earnings and fees. */
  creatorSalesClearing: 'creator_sales_clearing',
  /** Creator earnings in the 7-day hold (liability, owner = creator). */
  creatorPending: 'creator_earnings_pending',
  /** Creator earnings that can be withdrawn (liability, owner = creator). */
  creatorAvailable: 'creator_earnings_available',
  /** Requested payouts not yet completed, failed or cancelled (liability, owner = creator). */
  payoutsInTransit: 'payouts_in_transit',
  sitePlanRevenue: 'site_plan_revenue',
  /** The platform's 10% of creator sales. */
  platformFees: 'platform_fees',
  conversionFees: 'conversion_fees',
  payoutFees: 'payout_fees',
  otherRevenue: 'other_revenue',
  /** Card refunds and chargebacks of the platform's own revenue (contra revenue). */
  refunds: 'refunds',
  /** What the card processor charges for a chargeback (expense). */
  chargebackFees: 'chargeback_fees',
} as const;

export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[keyof typeof LEDGER_ACCOUNTS];

/** Accounts that only pass money through: their total is 0 once every flow has finished. */
export const CLEARING_ACCOUNTS: LedgerAccount[] = [
  LEDGER_ACCOUNTS.conversionClearing,
  LEDGER_ACCOUNTS.creatorSalesClearing,
];

// The kinds are part of the finance console's contract (its ledger filter), so they are defined there.
export type { LedgerKind } from '../contracts/admin';
