import { SITE_PLAN_PRICE_CENTS, SIX_MONTH_PLAN, formatCents } from '../contracts/money';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import type { EventStore, Position } from '../event-store/port';
import { paymentDecider, type RecordCharge } from '../payments/decider';
import { paymentStream, type PaymentRequestType } from '../payments/events';
import { PaymentDeclinedError, type ChargeRequest, type ChargeResult, type PaymentGateway } from '../payments/gateway';
import { recordRefundedCharge } from '../payments/refund';
import { DomainError, refuse } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import { balanceMovement } from '../shared/money-flows';
import { spendBalance } from '../wallet/balance';
import { cardOnFileDecider, loadCardOnFile, userStream } from './card-on-file';
import { monthsForBalanceSpend } from './activation-process';
import { membershipDecider } from './decider';
import { membershipStream } from './events';

/**
 * The member's own membership actions (SPEC §7): subscribe by card, the 6-month plan from the
 * USD balance, cancel, and age verification by a card authorization. Gateway calls happen
 * here, never in a decider; every answer is recorded as payment events.
 */

export interface MembershipDeps {
  store: EventStore;
  gateway: PaymentGateway;
}

export interface ActionResult {
  success: boolean;
  message: string;
  position: Position | null;
}

export const ALREADY_SUBSCRIBED = 'You are already subscribed';
export const AGE_VERIFICATION_REQUIRED = 'Age verification required';

const ageVerificationRequired = () => refuse.forbidden(AGE_VERIFICATION_REQUIRED, { requiresAgeVerification: true });
const day = (iso: string) => iso.slice(0, 10);

type ChargeInput = {
  paymentId: string;
  userId: string;
  requestType: PaymentRequestType;
  customerId: string;
  amountCents: number;
  cardHolderName: string | null;
  email: string | null;
  result: ChargeResult;
};

/** The payment command that records a gateway answer. */
const chargeCommand = (input: ChargeInput, context: CommandContext): RecordCharge => ({
  type: 'RecordCharge',
  paymentId: input.paymentId,
  userId: input.userId,
  requestType: input.requestType,
  gatewayCustomerId: input.customerId,
  amountCents: input.amountCents,
  currency: 'USD',
  cardHolderName: input.cardHolderName,
  email: input.email,
  correlationId: context.correlationId ?? context.requestId ?? null,
  result: input.result,
  now: context.now,
});

export async function recordCharge(
  store: EventStore,
  input: ChargeInput,
  context: CommandContext,
  eventIds?: string[],
) {
  return handleCommand(store, paymentStream(input.paymentId), paymentDecider, chargeCommand(input, context), context, {
    eventIds,
  });
}

/** POST /api/subscribe: $1.99 on the card on file; a canceled member still in the paid period resumes without a charge. */
export async function subscribeWithCard(
  deps: MembershipDeps,
  userId: string,
  context: CommandContext,
): Promise<ActionResult> {
  const { store, gateway } = deps;
  const { state: account } = await loadCardOnFile(store, userId);
  if (!account.exists) throw refuse.notFound('User not found');
  if (!account.ageVerified) throw ageVerificationRequired();
  const { state, revision } = await loadState(store, membershipStream(userId), membershipDecider);
  if (state.status === 'active') throw refuse.conflict(ALREADY_SUBSCRIBED);
  if (state.status === 'canceled' && new Date(state.periodEnd!) > context.now) {
    const resumed = await handleCommand(
      store,
      membershipStream(userId),
      membershipDecider,
      { type: 'ResumeMembership', userId, now: context.now },
      context,
    );
    return {
      success: true,
      message: `Your subscription has been resumed and renews on ${day(state.periodEnd!)}.`,
      position: resumed.position,
    };
  }
  if (!account.customerId) throw refuse.unprocessable('No card on file. Please verify your card first.');
  // Two clicks read the same revision, so they share the key: the processor charges once.
  const paymentId = deterministicId('membership-subscribe', userId, String(revision ?? 'none'));
  const charge = {
    request: {
      customerId: account.customerId,
      amountCents: SITE_PLAN_PRICE_CENTS,
      currency: 'USD' as const,
      description: 'Lively official membership subscription (monthly)',
      idempotencyKey: `subscribe:${paymentId}`,
    },
    record: {
      paymentId,
      userId,
      requestType: 'membership_subscribe',
      customerId: account.customerId,
      amountCents: SITE_PLAN_PRICE_CENTS,
      cardHolderName: account.name,
      email: account.email,
    },
  };
  let result: ChargeResult;
  let recorded: Awaited<ReturnType<typeof recordCharge>>;
  try {
    result = await gateway.charge(charge.request);
    recorded = await recordCharge(store, { ...charge.record, result }, context);
  } catch (error) {
    await giveBackUnrecordedCharge(deps, charge, context).catch(() => undefined); // the original failure is the answer
    throw error;
  }
  if (result.status === 'declined') {
    // Recorded on the membership stream too: the next attempt reads a new revision, so it is a new charge.
    const declined = await handleCommand(
      store,
      membershipStream(userId),
      membershipDecider,
      { type: 'RecordDeclinedCharge', userId, paymentId, failureReason: result.failureReason, now: context.now },
      context,
    );
    return {
      success: false,
      message: `Payment declined: ${result.failureReason}`,
      position: declined.position ?? recorded.position,
    };
  }
  const activated = await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    { type: 'ActivateMembership', userId, paymentId, source: 'card', months: 1, now: context.now },
    context,
  );
  const end = activated.state.periodEnd!;
  return {
    success: true,
    message: `Your $1.99/month membership is active until ${day(end)} and renews automatically.`,
    position: activated.position ?? recorded.position,
  };
}

/**
 * The card subscribe charge failed on its way to the record (a lost processor answer, a failed
 * append): unless it got recorded after all (then the activation process completes it), ask
 * the processor again with the same key (the original answer, never a second charge), refund
 * what was taken, record charge and refund, and close the attempt on the membership stream
 * (like a decline: the next attempt is a new charge, and this payment can never activate).
 */
async function giveBackUnrecordedCharge(
  deps: MembershipDeps,
  charge: { request: ChargeRequest; record: Omit<ChargeInput, 'result'> },
  context: CommandContext,
): Promise<void> {
  const { store, gateway } = deps;
  const { paymentId, userId, amountCents } = charge.record;
  if ((await loadState(store, paymentStream(paymentId), paymentDecider)).state.status !== 'new') return;
  const taken = await gateway.charge(charge.request);
  if (taken.status !== 'succeeded') return;
  const refund = await gateway.refund({
    transactionId: taken.transactionId,
    amountCents,
    idempotencyKey: `refund:${paymentId}`,
  });
  if (refund.status !== 'succeeded') return;
  const given = {
    type: 'RecordRefund' as const,
    gatewayRefundId: refund.transactionId,
    reason: 'the subscription could not be completed',
    now: context.now,
  };
  await recordRefundedCharge(store, chargeCommand({ ...charge.record, result: taken }, context), given, context);
  const reason = 'The payment could not be completed and was refunded';
  await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    { type: 'RecordDeclinedCharge', userId, paymentId, failureReason: reason, now: context.now },
    context,
  );
}

export const PURCHASE_IN_PROGRESS =
  'This 6-month plan was just bought by another request of yours. Check your subscription status.';

/**
 * POST /api/subscribe/crypto: 6 × $1.99 = $11.94 from the USD balance for 7 months.
 * The spend is the decision: its reference names the purchase (`membership:<purchaseId>`) and
 * the membership activation process turns it into the 7 months whatever happens to this
 * request; the request activates too, to answer with the period. The purchase id comes from
 * the membership revision read, so concurrent identical requests are one purchase: the one
 * whose spend was written answers 200, the others 409 (they bought nothing). Which conversions
 * paid for it is bookkeeping afterwards (`markConversions`): it can never undo or strand the spend.
 */
export async function subscribeWithBalance(
  deps: { store: EventStore; markConversions: (purchaseId: string, context: CommandContext) => Promise<unknown> },
  userId: string,
  context: CommandContext,
): Promise<ActionResult> {
  const { store } = deps;
  const { state: account } = await loadCardOnFile(store, userId);
  if (!account.exists) throw refuse.notFound('User not found');
  if (!account.ageVerified) throw ageVerificationRequired();
  const { revision } = await loadState(store, membershipStream(userId), membershipDecider);
  const purchaseId = deterministicId('membership-crypto-plan', userId, String(revision ?? 'none'));
  const spent = await spendForPlan(store, userId, purchaseId, context);
  if (!spent.applied) throw refuse.conflict(PURCHASE_IN_PROGRESS);
  const activated = await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    {
      type: 'ActivateMembership',
      userId,
      paymentId: purchaseId,
      source: 'crypto',
      months: monthsForBalanceSpend(SIX_MONTH_PLAN.priceCents)!,
      now: context.now,
    },
    context,
  );
  await deps.markConversions(purchaseId, context).catch(() => undefined); // a label only: the plan is bought either way
  return {
    success: true,
    message: `6-month plan activated: 7 months of access until ${day(activated.state.periodEnd!)}.`,
    position: activated.position ?? spent.position,
  };
}

async function spendForPlan(store: EventStore, userId: string, purchaseId: string, context: CommandContext) {
  try {
    return await spendBalance(
      store,
      userId,
      balanceMovement('site_plan', purchaseId, SIX_MONTH_PLAN.priceCents),
      context,
    );
  } catch (error) {
    if (!(error instanceof DomainError && error.message === 'Insufficient balance')) throw error;
    const have = Number(error.details.balanceCents ?? 0);
    const message = `Insufficient crypto balance: the 6-month plan costs $${formatCents(SIX_MONTH_PLAN.priceCents)} and your balance is $${formatCents(have)}. Convert more crypto first.`;
    throw refuse.unprocessable(message, {
      success: false,
      message,
      balanceCents: have,
      requiredCents: SIX_MONTH_PLAN.priceCents,
    });
  }
}

/** POST /api/cancel-subscription: no further renewals; access continues to the end of the paid period. */
export async function cancelMembership(
  store: EventStore,
  userId: string,
  context: CommandContext,
): Promise<ActionResult> {
  const result = await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    { type: 'CancelMembership', userId, now: context.now },
    context,
  );
  const until = result.events[0]?.type === 'MembershipCanceled' ? result.events[0].data.accessUntil : null;
  return {
    success: true,
    message: `Your subscription has been canceled. You keep access until ${until ? day(until) : 'the end of the paid period'}.`,
    position: result.position,
  };
}

/** /verify-age: a zero-value card authorization (on a new card when a token is given) marks the user age verified. */
export async function verifyAge(
  deps: MembershipDeps,
  userId: string,
  paymentToken: string | undefined,
  context: CommandContext,
): Promise<ActionResult> {
  const { store, gateway } = deps;
  const { state: account, revision } = await loadCardOnFile(store, userId);
  if (!account.exists) throw refuse.notFound('User not found');
  if (account.ageVerified && !paymentToken)
    return { success: true, message: 'Your age is already verified.', position: null };
  const key = `${userId}:${String(revision)}`;
  let customerId = account.customerId;
  let newCard: { customerId: string; cardLast4: string } | null = null;
  if (paymentToken) {
    try {
      const card = customerId
        ? await gateway.updateCard({ customerId, paymentToken, idempotencyKey: `card:${key}` })
        : await gateway.createCustomer({
            email: account.email ?? '',
            name: account.name ?? '',
            paymentToken,
            idempotencyKey: `card:${key}`,
          });
      newCard = { customerId: card.customerId, cardLast4: card.cardLast4 };
      customerId = card.customerId;
    } catch (error) {
      if (!(error instanceof PaymentDeclinedError)) throw error;
      // The refused card is recorded like any gateway answer (no card data, no last 4 known).
      const refusedId = deterministicId('age-verification-card', key);
      const refusal: ChargeResult = {
        status: 'declined',
        transactionId: `card_refused:${refusedId}`,
        cardLast4: '0000',
        failureReason: error.reason,
        raw: { operation: customerId ? 'updateCard' : 'createCustomer' },
      };
      await recordCharge(
        store,
        {
          paymentId: refusedId,
          userId,
          requestType: 'age_verification',
          customerId: customerId ?? '',
          amountCents: 0,
          cardHolderName: account.name,
          email: account.email,
          result: refusal,
        },
        context,
      );
      throw refuse.declined(`Card verification failed: ${error.reason}`);
    }
  }
  if (!customerId)
    throw refuse.validation('Payment information is required', { paymentToken: 'Payment information is required' });
  const paymentId = deterministicId('age-verification', key);
  const result = await gateway.authorize({ customerId, idempotencyKey: `age:${paymentId}` });
  const recorded = await recordCharge(
    store,
    {
      paymentId,
      userId,
      requestType: 'age_verification',
      customerId,
      amountCents: 0,
      cardHolderName: account.name,
      email: account.email,
      result,
    },
    context,
  );
  if (result.status === 'declined') throw refuse.declined(`Card verification failed: ${result.failureReason}`);
  const verified = await handleCommand(
    store,
    userStream(userId),
    cardOnFileDecider,
    { type: 'RecordAgeVerification', userId, newCard, cardLast4: result.cardLast4, now: context.now },
    context,
  );
  return { success: true, message: 'Your age has been verified.', position: verified.position ?? recorded.position };
}
