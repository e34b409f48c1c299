import { addMonths } from '../membership/period';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { flowReference } from '../shared/money-flows';
import type { CreatorSubscriptionEvent, RenewalSource, SubscribedTier } from './events';

/**
 * A member's subscription to one creator (stream `creatorSubscription-<member>_<creator>`):
 * one stream per pair, so two concurrent subscribes cannot both start a period.
 * none -> active (paid) -> canceled (access to the period end) -> expired;
 * active -> active (renewed) | past_due (renewal declined: retries, access during the grace
 * period) -> active (a retry paid) | expired; a charge less than 7 days old -> refunded (access
 * ends at once). A later subscribe starts a new subscription on the same stream. Pure: time
 * and gateway answers come in the command.
 */

export type CreatorSubscriptionStatus = 'none' | 'active' | 'canceled' | 'past_due' | 'expired' | 'refunded';

/** A tier as a command names it (its price of the day). */
export interface TierTerms {
  tierId: string;
  name: string;
  priceCents: number;
}

/** The payment the money-back guarantee may give back: a card charge, or a spend from the balance. */
export interface SubscriptionCharge {
  /** The gateway transaction; null when the period was paid from the USD balance. */
  transactionId: string | null;
  paidFrom: RenewalSource;
  amountCents: number;
  at: string;
  saleReference: string;
}

export interface CreatorSubscriptionState {
  status: CreatorSubscriptionStatus;
  subscriptionId: string | null;
  subscriberId: string | null;
  creatorId: string | null;
  /** The tier of the paid period, and the one renewals charge from the next period on. */
  tier: SubscribedTier | null;
  nextTier: SubscribedTier | null;
  periodStart: string | null;
  periodEnd: string | null;
  /** Declined renewal attempts of the current period. */
  failedAttempts: number;
  nextAttemptAt: string | null;
  graceEndsAt: string | null;
  lastCharge: SubscriptionCharge | null;
  /** How the next renewals are paid (the member's choice; a new subscription starts on the card). */
  renewFrom: RenewalSource;
  /**
   * What ended it when money was given back: `refund:<gatewayRefundId>`, `dispute:<disputeId>`,
   * or `balance:<credit reference>` for a period paid from the balance.
   */
  endedBy: string | null;
  /** Until when the member may read the creator's locked posts (null: never subscribed). */
  activeUntil: Date | null;
}

/**
 * The first period's terms when a promotion applies: `chargeCents` 0 is a trial (no charge,
 * the card on file still required), less than the tier price a discount; `periodEnd` null
 * means one month.
 */
export interface FirstPeriodTerms {
  chargeCents: number;
  periodEnd: Date | null;
  promotionId: string;
}

export interface StartCreatorSubscription {
  type: 'StartCreatorSubscription';
  subscriptionId: string;
  subscriberId: string;
  creatorId: string;
  tier: TierTerms;
  /** The charge paying the first period; null when nothing was charged (a trial). */
  transactionId: string | null;
  terms?: FirstPeriodTerms;
  at: Date;
}

/**
 * How the renewal of the period ending at `periodEnd`, try `attempt`, went: paid by card (the
 * gateway's transaction), paid from the USD balance (the spend `creatorSubscription:<renewalId>`),
 * or declined.
 */
export interface RecordCreatorRenewal {
  type: 'RecordCreatorRenewal';
  periodEnd: string;
  attempt: number;
  renewalId: string;
  tier: TierTerms;
  outcome:
    | { paid: true; paidFrom: 'card'; transactionId: string }
    | { paid: true; paidFrom: 'balance' }
    | { paid: false; failureReason: string; paidFrom?: 'balance' };
  at: Date;
}

export interface ExpireCreatorSubscription {
  type: 'ExpireCreatorSubscription';
  at: Date;
}
export interface CancelCreatorSubscription {
  type: 'CancelCreatorSubscription';
  at: Date;
}
export interface ResumeCreatorSubscription {
  type: 'ResumeCreatorSubscription';
  at: Date;
}
export interface ChangeCreatorSubscriptionTier {
  type: 'ChangeCreatorSubscriptionTier';
  tier: TierTerms;
  at: Date;
}
export interface ChangeCreatorSubscriptionRenewalSource {
  type: 'ChangeCreatorSubscriptionRenewalSource';
  source: RenewalSource;
  at: Date;
}
/**
 * The money-back guarantee gave back `amountCents` of the last payment (checked refundable with
 * `assertRefundable` before): a card charge refunded at the gateway (what remained of it), or a
 * period paid from the balance credited back to it (`balanceReference`).
 */
export type RecordCreatorSubscriptionRefund = {
  type: 'RecordCreatorSubscriptionRefund';
  amountCents: number;
  reason: string;
  at: Date;
} & (
  | { transactionId: string; gatewayRefundId: string; balanceReference?: undefined }
  | { transactionId: null; gatewayRefundId: null; balanceReference: string }
);
/**
 * A charge of the subscription was given back outside the guarantee (a staff refund in full, a
 * chargeback; `givenBackId` names it): access ends now, whatever the charge's age.
 */
export interface EndCreatorSubscriptionGivenBack {
  type: 'EndCreatorSubscriptionGivenBack';
  transactionId: string;
  givenBackId: string;
  cause: 'refund' | 'chargeback';
  at: Date;
}

export type CreatorSubscriptionCommand =
  | StartCreatorSubscription
  | RecordCreatorRenewal
  | ExpireCreatorSubscription
  | CancelCreatorSubscription
  | ResumeCreatorSubscription
  | ChangeCreatorSubscriptionTier
  | ChangeCreatorSubscriptionRenewalSource
  | RecordCreatorSubscriptionRefund
  | EndCreatorSubscriptionGivenBack;

/** Days after the period end at which a declined renewal is tried again (attempts 2, 3, 4). */
export const RENEWAL_RETRY_DAYS = [1, 3, 5];
/** Days after the period end a member keeps access while the renewal is unpaid. */
export const RENEWAL_GRACE_DAYS = 7;
/** The money-back guarantee: a tier charge may be refunded this long after it was made. */
export const MONEY_BACK_DAYS = 7;
const DAY_MS = 86_400_000;

/** One calendar month later (clamped to the month's last day: Jan 31 → Feb 28/29). */
export const oneMonthAfter = (start: Date): Date => addMonths(start, 1);

const afterDays = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY_MS).toISOString();

/** Until when a running subscription gives access: its paid period, or the grace period when past due. */
const runningAccessEnd = (state: CreatorSubscriptionState): Date =>
  new Date(state.status === 'past_due' ? state.graceEndsAt! : state.periodEnd!);

/** The end of the grace period after the paid period: no renewal is charged later than this. */
const graceEnd = (state: CreatorSubscriptionState) => new Date(afterDays(state.periodEnd!, RENEWAL_GRACE_DAYS));

/**
 * A renewal charge is due: the renewing period is over (within its grace period: a period that
 * ended longer ago, e.g. one sold before renewals existed, is never charged late), or a declined
 * one's next try has come.
 */
export function renewalDue(state: CreatorSubscriptionState, now: Date): boolean {
  if (state.status === 'active') return new Date(state.periodEnd!) <= now && now < graceEnd(state);
  return state.status === 'past_due' && state.nextAttemptAt !== null && new Date(state.nextAttemptAt) <= now;
}

/** Access ran out and nothing will renew it: a canceled period's end, or the grace end of an unpaid renewal. */
export function expiryDue(state: CreatorSubscriptionState, now: Date): boolean {
  if (state.status === 'canceled') return state.activeUntil !== null && state.activeUntil <= now;
  if (state.status === 'active') return graceEnd(state) <= now;
  return state.status === 'past_due' && state.nextAttemptAt === null && new Date(state.graceEndsAt!) <= now;
}

/** Throws the 409 when the member already has a running subscription to the creator. */
export function assertCanSubscribe(
  state: CreatorSubscriptionState,
  subscriberId: string,
  creatorId: string,
  at: Date,
): void {
  if (subscriberId === creatorId) throw refuse.unprocessable('You cannot subscribe to yourself');
  if (state.activeUntil && state.activeUntil > at) throw refuse.conflict('You are already subscribed to this creator');
}

/** The charge the money-back guarantee would refund now, or the refusal. */
export function assertRefundable(state: CreatorSubscriptionState, now: Date): SubscriptionCharge {
  if (!state.activeUntil || state.activeUntil <= now || state.status === 'refunded')
    throw refuse.conflict('This subscription has no running period to refund');
  const charge = state.lastCharge;
  if (!charge) throw refuse.conflict('Nothing was charged for this period: there is nothing to refund');
  if (new Date(charge.at).getTime() + MONEY_BACK_DAYS * DAY_MS <= now.getTime())
    throw refuse.conflict(
      `The money-back guarantee lasts ${MONEY_BACK_DAYS} days after a charge; this one was made on ${charge.at.slice(0, 10)}`,
    );
  return charge;
}

function renewingSubscription(state: CreatorSubscriptionState, at: Date) {
  if (state.status !== 'active' && state.status !== 'past_due' && state.status !== 'canceled')
    throw refuse.conflict('You are not subscribed to this creator');
  if (!state.activeUntil || state.activeUntil <= at) throw refuse.conflict('This subscription has ended');
}

const asSubscribed = (tier: TierTerms): SubscribedTier => ({
  tierId: tier.tierId,
  tierName: tier.name,
  priceCents: tier.priceCents,
});

export const initialCreatorSubscriptionState: CreatorSubscriptionState = {
  status: 'none',
  subscriptionId: null,
  subscriberId: null,
  creatorId: null,
  tier: null,
  nextTier: null,
  periodStart: null,
  periodEnd: null,
  failedAttempts: 0,
  nextAttemptAt: null,
  graceEndsAt: null,
  lastCharge: null,
  renewFrom: 'card',
  endedBy: null,
  activeUntil: null,
};

/** What one event changes, access aside. */
function applyFact(state: CreatorSubscriptionState, event: CreatorSubscriptionEvent): CreatorSubscriptionState {
  switch (event.type) {
    case 'CreatorSubscriptionStarted': {
      const d = event.data;
      const tier = { tierId: d.tierId, tierName: d.tierName, priceCents: d.tierPriceCents ?? d.priceCents };
      const charge: SubscriptionCharge | null = d.transactionId
        ? {
            transactionId: d.transactionId,
            paidFrom: 'card',
            amountCents: d.priceCents,
            at: d.startDate,
            saleReference: flowReference('tier_subscription', d.subscriptionId),
          }
        : null;
      return {
        ...initialCreatorSubscriptionState,
        status: 'active',
        subscriptionId: d.subscriptionId,
        subscriberId: d.subscriberId,
        creatorId: d.creatorId,
        tier,
        periodStart: d.startDate,
        periodEnd: d.endDate,
        lastCharge: charge,
      };
    }
    case 'CreatorSubscriptionRenewed': {
      const d = event.data;
      return {
        ...state,
        status: 'active',
        tier: { tierId: d.tierId, tierName: d.tierName, priceCents: d.priceCents },
        nextTier: null,
        periodStart: d.periodStart,
        periodEnd: d.periodEnd,
        failedAttempts: 0,
        nextAttemptAt: null,
        graceEndsAt: null,
        lastCharge: {
          transactionId: d.transactionId,
          paidFrom: d.paidFrom ?? 'card',
          amountCents: d.priceCents,
          at: d.renewedAt,
          saleReference: flowReference('tier_subscription', d.renewalId),
        },
      };
    }
    case 'CreatorSubscriptionRenewalDeclined':
      return {
        ...state,
        status: 'past_due',
        failedAttempts: event.data.attempt,
        nextAttemptAt: event.data.nextAttemptAt,
        graceEndsAt: event.data.graceEndsAt,
      };
    case 'CreatorSubscriptionCanceled':
      return { ...state, status: 'canceled', nextTier: null, activeUntil: new Date(event.data.accessUntil) };
    case 'CreatorSubscriptionResumed':
      return { ...state, status: 'active' };
    case 'CreatorSubscriptionTierChanged': {
      const d = event.data;
      const back = d.tierId === state.tier?.tierId;
      return {
        ...state,
        nextTier: back ? null : { tierId: d.tierId, tierName: d.tierName, priceCents: d.priceCents },
      };
    }
    case 'CreatorSubscriptionRenewalSourceChanged':
      return { ...state, renewFrom: event.data.source };
    case 'CreatorSubscriptionExpired':
      return { ...state, status: 'expired', nextAttemptAt: null, activeUntil: new Date(event.data.expiredAt) };
    case 'CreatorSubscriptionRefunded':
    case 'CreatorSubscriptionChargeGivenBack': {
      const d = event.data;
      return {
        ...state,
        status: 'refunded',
        nextTier: null,
        nextAttemptAt: null,
        lastCharge: null,
        endedBy: 'givenBackId' in d ? d.givenBackId : endedByRefund(d),
        activeUntil: new Date(d.at),
      };
    }
  }
}

/** What a money-back refund's event or command names as the end of the subscription. */
const endedByRefund = (refund: { gatewayRefundId: string | null; balanceReference?: string }) =>
  refund.gatewayRefundId ? `refund:${refund.gatewayRefundId}` : `balance:${refund.balanceReference}`;

function evolve(state: CreatorSubscriptionState, event: CreatorSubscriptionEvent): CreatorSubscriptionState {
  const next = applyFact(state, event);
  // A running period's access follows from it; a cancellation, expiry or refund sets it in its event.
  return next.status === 'active' || next.status === 'past_due'
    ? { ...next, activeUntil: runningAccessEnd(next) }
    : next;
}

function decide(command: CreatorSubscriptionCommand, state: CreatorSubscriptionState): CreatorSubscriptionEvent[] {
  const at = command.at.toISOString();
  const fact = () => ({
    subscriptionId: state.subscriptionId!,
    subscriberId: state.subscriberId!,
    creatorId: state.creatorId!,
  });
  switch (command.type) {
    case 'StartCreatorSubscription': {
      assertCanSubscribe(state, command.subscriberId, command.creatorId, command.at);
      const terms = command.terms;
      if (terms && (!Number.isInteger(terms.chargeCents) || terms.chargeCents < 0))
        throw refuse.validation('Invalid first-period charge');
      const end = terms?.periodEnd ?? oneMonthAfter(command.at);
      if (end <= command.at) throw refuse.validation('The first period must end after it starts');
      const ended = state.status === 'canceled' || state.status === 'past_due';
      return [
        // The previous subscription ran out without the tick noticing yet: it ends before the new one starts.
        ...(ended
          ? [
              {
                type: 'CreatorSubscriptionExpired' as const,
                data: {
                  subscriptionId: state.subscriptionId!,
                  subscriberId: command.subscriberId,
                  creatorId: command.creatorId,
                  reason: state.status === 'canceled' ? ('canceled' as const) : ('unpaid' as const),
                  expiredAt: at,
                },
              },
            ]
          : []),
        {
          type: 'CreatorSubscriptionStarted',
          data: {
            subscriptionId: command.subscriptionId,
            subscriberId: command.subscriberId,
            creatorId: command.creatorId,
            tierId: command.tier.tierId,
            tierName: command.tier.name,
            priceCents: terms ? terms.chargeCents : command.tier.priceCents,
            transactionId: command.transactionId,
            startDate: at,
            endDate: end.toISOString(),
            ...(terms ? { tierPriceCents: command.tier.priceCents, promotionId: terms.promotionId } : {}),
          },
        },
      ];
    }
    case 'RecordCreatorRenewal': {
      // Only the current period's due attempt, once: a replayed or late answer changes nothing.
      if (
        state.periodEnd !== command.periodEnd ||
        state.failedAttempts + 1 !== command.attempt ||
        !renewalDue(state, command.at)
      )
        return [];
      if (command.outcome.paid)
        return [
          {
            type: 'CreatorSubscriptionRenewed',
            data: {
              ...fact(),
              ...asSubscribed(command.tier),
              renewalId: command.renewalId,
              ...(command.outcome.paidFrom === 'card'
                ? { transactionId: command.outcome.transactionId }
                : { transactionId: null, paidFrom: 'balance' as const }),
              periodStart: state.periodEnd,
              periodEnd: oneMonthAfter(new Date(state.periodEnd)).toISOString(),
              renewedAt: at,
            },
          },
        ];
      const retryDays = RENEWAL_RETRY_DAYS[command.attempt - 1];
      return [
        {
          type: 'CreatorSubscriptionRenewalDeclined',
          data: {
            ...fact(),
            ...asSubscribed(command.tier),
            periodEnd: state.periodEnd,
            attempt: command.attempt,
            failureReason: command.outcome.failureReason,
            ...(command.outcome.paidFrom ? { paidFrom: command.outcome.paidFrom } : {}),
            nextAttemptAt: retryDays === undefined ? null : afterDays(state.periodEnd, retryDays),
            graceEndsAt: afterDays(state.periodEnd, RENEWAL_GRACE_DAYS),
            at,
          },
        },
      ];
    }
    case 'ExpireCreatorSubscription': {
      if (!expiryDue(state, command.at)) return [];
      const reason = state.status === 'canceled' ? 'canceled' : 'unpaid';
      return [{ type: 'CreatorSubscriptionExpired', data: { ...fact(), reason, expiredAt: at } }];
    }
    case 'CancelCreatorSubscription': {
      renewingSubscription(state, command.at);
      if (state.status === 'canceled') throw refuse.conflict('This subscription is already canceled');
      // An unpaid renewal bought no time: access ends now. A paid period runs to its end.
      const accessUntil = state.status === 'past_due' ? at : state.periodEnd!;
      return [{ type: 'CreatorSubscriptionCanceled', data: { ...fact(), accessUntil, canceledAt: at } }];
    }
    case 'ResumeCreatorSubscription': {
      renewingSubscription(state, command.at);
      if (state.status !== 'canceled') throw refuse.conflict('This subscription is not canceled');
      return [{ type: 'CreatorSubscriptionResumed', data: { ...fact(), periodEnd: state.periodEnd!, resumedAt: at } }];
    }
    case 'ChangeCreatorSubscriptionRenewalSource': {
      renewingSubscription(state, command.at);
      if (state.status === 'canceled') throw refuse.conflict('This subscription is canceled: it will not renew');
      if (state.renewFrom === command.source) return [];
      return [{ type: 'CreatorSubscriptionRenewalSourceChanged', data: { ...fact(), source: command.source, at } }];
    }
    case 'ChangeCreatorSubscriptionTier': {
      renewingSubscription(state, command.at);
      if (state.status !== 'active') throw refuse.conflict('Only a renewing subscription can change its tier');
      const upcoming = state.nextTier ?? state.tier!;
      if (upcoming.tierId === command.tier.tierId) throw refuse.conflict('This tier is already the one you renew at');
      return [
        {
          type: 'CreatorSubscriptionTierChanged',
          data: {
            ...fact(),
            ...asSubscribed(command.tier),
            fromTierId: state.tier!.tierId,
            effectiveAt: state.periodEnd!,
            at,
          },
        },
      ];
    }
    case 'RecordCreatorSubscriptionRefund': {
      // Ended by this very refund already (its payment stream's process got there first).
      if (state.endedBy === endedByRefund(command)) return [];
      const charge = assertRefundable(state, command.at);
      if (charge.transactionId !== command.transactionId) return [];
      const given = command.balanceReference
        ? {
            transactionId: null,
            gatewayRefundId: null,
            paidFrom: 'balance' as const,
            balanceReference: command.balanceReference,
          }
        : { transactionId: command.transactionId, gatewayRefundId: command.gatewayRefundId };
      return [
        {
          type: 'CreatorSubscriptionRefunded',
          data: {
            ...fact(),
            ...given,
            amountCents: command.amountCents,
            reason: command.reason,
            at,
            saleReference: charge.saleReference,
          },
        },
      ];
    }
    case 'EndCreatorSubscriptionGivenBack': {
      // Only the charge that paid the running period, while it still gives access; once. An
      // older period's charge given back takes its money back (the share reversal) but not the
      // period paid since.
      const running = state.activeUntil !== null && state.activeUntil > command.at && state.status !== 'refunded';
      if (!running || state.lastCharge?.transactionId !== command.transactionId) return [];
      return [
        {
          type: 'CreatorSubscriptionChargeGivenBack',
          data: {
            ...fact(),
            transactionId: command.transactionId,
            givenBackId: command.givenBackId,
            cause: command.cause,
            at,
          },
        },
      ];
    }
  }
}

export const creatorSubscriptionDecider: Decider<
  CreatorSubscriptionCommand,
  CreatorSubscriptionState,
  CreatorSubscriptionEvent
> = {
  initialState: initialCreatorSubscriptionState,
  evolve,
  decide,
};
