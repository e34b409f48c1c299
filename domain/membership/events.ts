import type { DomainEvent } from '../shared/command-handler';

/** The site membership of one user lives on `membership-<userId>`. Dates are ISO strings. */
export const membershipStream = (userId: string) => `membership-${userId}`;

/** Site plan price (SPEC §9): $1.99 a month, in cents. */
export const MONTHLY_PRICE_CENTS = 199;

export type MembershipSource = 'card' | 'crypto';

export interface MembershipActivatedData {
  userId: string;
  periodStart: string;
  periodEnd: string;
  source: MembershipSource;
  /** The payment (card) or conversion (crypto) that paid for the period: activates once. */
  paymentId: string;
  /** When it was paid; the users read model's lastPaymentDate. */
  activatedAt: string;
}

export type MembershipActivated = DomainEvent<'MembershipActivated', MembershipActivatedData>;

export type MembershipEvent = MembershipActivated;

export const MEMBERSHIP_EVENT_TYPES = ['MembershipActivated'] as const satisfies ReadonlyArray<MembershipEvent['type']>;
