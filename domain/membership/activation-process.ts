import { accountDecider } from '../accounts/decider';
import { signUpPaymentId, userStream } from '../accounts/events';
import { SIX_MONTH_PLAN } from '../contracts/money';
import type { EventStore, RecordedEvent } from '../event-store/port';
import { paymentDecider } from '../payments/decider';
import { paymentStream, type PaymentCapturedData } from '../payments/events';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import { flowOfReference } from '../shared/money-flows';
import type { ProcessManager } from '../shared/process-manager';
import type { BalanceMovement } from '../wallet/events';
import { membershipDecider } from './decider';
import { membershipStream, type MembershipSource } from './events';

/** Months of membership a captured card payment buys, by its request type. Extend per plan. */
export const MEMBERSHIP_MONTHS_BY_REQUEST: Record<string, number> = { membership_signup: 1, membership_subscribe: 1 };

/** Months a balance spend for a plan buys, by its amount (only the 6-month plan is sold from the balance). */
export function monthsForBalanceSpend(amountCents: number): number | null {
  return amountCents === SIX_MONTH_PLAN.priceCents ? SIX_MONTH_PLAN.months + SIX_MONTH_PLAN.bonusMonths : null;
}

interface Purchase {
  userId: string;
  paymentId: string;
  source: MembershipSource;
  months: number;
  /** When it was paid: the period starts then (replays give the same period). */
  paidAt: string;
}

/**
 * Money paid for membership always becomes membership time (DESIGN §4): the requests activate
 * it themselves (to answer with the period), and this completes it when a request died after
 * the money moved:
 * - a captured card payment for membership (sign-up, subscribe), once its user is registered
 *   and unless it was refunded (a sign-up that was given back);
 * - a registered user: their sign-up payment, captured before the registration was written;
 * - a balance spend for a plan (`membership:<purchaseId>`): the spend is the decision, the
 *   activation follows it whatever happens to the request.
 * The decider activates each payment once and event ids derive from the trigger, so replays
 * and races with the request write nothing twice.
 */
export const membershipActivationProcess: ProcessManager = {
  name: 'membership-activation',
  eventTypes: ['PaymentCaptured', 'UserRegistered', 'WalletDebited'],
  async handle(event, { store }) {
    const purchase = await purchaseOf(store, event);
    if (!purchase) return;
    const context: CommandContext = {
      actorId: event.metadata.actorId ?? null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now: new Date(purchase.paidAt),
    };
    const { userId, paymentId, source, months } = purchase;
    await handleCommand(
      store,
      membershipStream(userId),
      membershipDecider,
      { type: 'ActivateMembership', userId, paymentId, source, months, now: context.now },
      context,
      {
        eventIds: [deterministicId('membership-activation', event.eventId)],
      },
    );
  },
};

/** The membership purchase an event completes, or null when it is none (or not yet, or no longer). */
async function purchaseOf(store: EventStore, event: RecordedEvent): Promise<Purchase | null> {
  switch (event.type) {
    case 'PaymentCaptured':
      return cardPurchase(store, event.data as PaymentCapturedData, { requireUser: true });
    case 'UserRegistered': {
      const userId = (event.data as { userId: string }).userId;
      const captured = (await store.readStream(paymentStream(signUpPaymentId(userId)))).find(
        (e) => e.type === 'PaymentCaptured',
      );
      return captured ? cardPurchase(store, captured.data as PaymentCapturedData, { requireUser: false }) : null;
    }
    case 'WalletDebited': {
      const spend = event.data as BalanceMovement;
      const months = monthsForBalanceSpend(spend.amountCents);
      // The site plan's reference (`membership:<purchaseId>`): the purchase activates once.
      const named = flowOfReference(spend.reference);
      if (named?.flow !== 'site_plan' || months === null) return null;
      const paidAt = (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
      return { userId: spend.userId, paymentId: named.id, source: 'crypto', months, paidAt };
    }
    default:
      return null;
  }
}

async function cardPurchase(
  store: EventStore,
  data: PaymentCapturedData,
  options: { requireUser: boolean },
): Promise<Purchase | null> {
  const months = MEMBERSHIP_MONTHS_BY_REQUEST[data.requestType];
  if (!months) return null;
  // A sign-up records its charge before the user: wait for UserRegistered (it brings us back here).
  if (options.requireUser && !(await loadState(store, userStream(data.userId), accountDecider)).state.exists)
    return null;
  if ((await loadState(store, paymentStream(data.paymentId), paymentDecider)).state.status === 'refunded') return null;
  return { userId: data.userId, paymentId: data.paymentId, source: 'card', months, paidAt: data.at };
}
