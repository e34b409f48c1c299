import { SITE_PLAN_PRICE_CENTS } from '../contracts/money';
import { isStorableText, TEXT_NOT_ALLOWED } from '../contracts/text';
import type { EventStore, Position } from '../event-store/port';
import { membershipDecider } from '../membership/decider';
import { membershipStream } from '../membership/events';
import { paymentDecider, type RecordCharge } from '../payments/decider';
import { paymentStream, type PaymentCapturedData } from '../payments/events';
import {
  PaymentDeclinedError,
  type CardOnFile,
  type ChargeRequest,
  type ChargeResult,
  type PaymentGateway,
} from '../payments/gateway';
import { recordRefundedCharge } from '../payments/refund';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { accountDecider, initialAccountState, type RegisterUser } from './decider';
import { claimEmail, EMAIL_TAKEN, releaseEmail } from './email-claim';
import { signUpPaymentId, userStream } from './events';
import { userIdForEmail } from './lookup';

export { EMAIL_TAKEN };
export const WELCOME_MESSAGE = 'Your account has been created and subscription is active.';
/** Why a sign-up's charge was given back (the refund's reason, the email release's reason). */
export const SIGN_UP_GIVEN_BACK = 'sign-up did not complete';

export interface RegisterInput {
  email: string;
  firstName: string;
  lastName: string;
  /** argon2id, hashed by the caller. */
  passwordHash: string;
  paymentToken: string;
}

/** The answer's text for a refused card: always says the card was declined. */
export function declinedMessage(reason: string): string {
  return /declined/i.test(reason) ? reason : `Your card was declined: ${reason}`;
}

type Deps = { store: EventStore; gateway: PaymentGateway };
type Captured = Extract<ChargeResult, { status: 'succeeded' }>;

/** One sign-up in flight: who, and (once taken) the first month's charge. */
interface SignUp {
  userId: string;
  paymentId: string;
  email: string;
  name: string;
  card: CardOnFile;
}

/**
 * Sign-up with card (SPEC §2 Register), a flow over four streams that completes or gives the
 * money back (DESIGN §4):
 * 1. every input is accepted first (storable text, the account decision made purely), and the
 *    card is saved: a refusal here has moved no money and written nothing;
 * 2. the first month is charged (idempotency key per payment);
 * 3. the charge is recorded (PaymentCaptured: finance sees the money at once), the email is
 *    claimed, the user registered. The registration is the commit point: a failure before it
 *    refunds the charge, records the refund and releases the email (it can be registered
 *    again); a concurrent sign-up of the same email gets the 409 that way;
 * 4. one month of membership. Should this fail, the membership activation process completes it
 *    (it follows UserRegistered to the sign-up payment).
 * Should the process die between 3's charge record and the registration, the sign-up recovery
 * ticker gives the money back (giveBackAbandonedSignUp).
 */
export async function registerUser(
  deps: Deps,
  input: RegisterInput,
  context: CommandContext,
): Promise<{ userId: string; position: Position }> {
  const { store, gateway } = deps;
  if (await userIdForEmail(store, input.email)) throw refuse.conflict(EMAIL_TAKEN);
  refuseUnstorableText(input);
  const userId = newId();
  const pending = {
    userId,
    paymentId: signUpPaymentId(userId),
    email: input.email,
    name: `${input.firstName} ${input.lastName}`,
  };
  const signUp: SignUp = { ...pending, card: await saveCard(gateway, pending, input.paymentToken) };
  const registration: RegisterUser = {
    type: 'RegisterUser',
    userId,
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: input.passwordHash,
    gatewayCustomerId: signUp.card.customerId,
    cardLast4: signUp.card.cardLast4,
    now: context.now,
  };
  accountDecider.decide(registration, initialAccountState); // throws before any charge if refused
  const charge = await chargeFirstMonth(deps, signUp, context);
  await recordUntilRegistered(deps, signUp, charge, registration, context);
  const activated = await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    {
      type: 'ActivateMembership',
      userId,
      paymentId: signUp.paymentId,
      source: 'card',
      months: 1,
      now: context.now,
    },
    context,
  );
  // Nothing written: the activation process got there first; wait for its event instead.
  const position = activated.position ?? (await store.readStream(membershipStream(userId))).at(-1)!.position;
  return { userId, position };
}

/** Text PostgreSQL cannot keep would fail an append after the charge: refused before it (the contracts refuse it too). */
function refuseUnstorableText(input: RegisterInput): void {
  const fields = Object.fromEntries(
    (['email', 'firstName', 'lastName'] as const)
      .filter((field) => !isStorableText(input[field]))
      .map((field) => [field, TEXT_NOT_ALLOWED]),
  );
  if (Object.keys(fields).length) throw refuse.validation(TEXT_NOT_ALLOWED, fields);
}

async function saveCard(
  gateway: PaymentGateway,
  pending: Omit<SignUp, 'card'>,
  paymentToken: string,
): Promise<CardOnFile> {
  try {
    return await gateway.createCustomer({
      email: pending.email,
      name: pending.name,
      paymentToken,
      idempotencyKey: `customer:${pending.userId}`,
    });
  } catch (error) {
    if (error instanceof PaymentDeclinedError) throw refuse.declined(declinedMessage(error.reason));
    throw error;
  }
}

async function chargeFirstMonth(deps: Deps, signUp: SignUp, context: CommandContext): Promise<Captured> {
  const request: ChargeRequest = {
    customerId: signUp.card.customerId,
    amountCents: SITE_PLAN_PRICE_CENTS,
    currency: 'USD',
    description: 'Lively official membership subscription (monthly)',
    idempotencyKey: `signup:${signUp.paymentId}`,
  };
  let charge: ChargeResult;
  try {
    charge = await deps.gateway.charge(request);
  } catch (error) {
    // The answer may have been lost after the processor took the money. Asking again with the
    // same key answers with that charge and never charges twice (or charges now): give it back.
    const taken = await deps.gateway.charge(request).catch(() => null);
    if (taken?.status === 'succeeded')
      await giveBack(deps, signUp, taken, context).catch((failure) => rethrowBoth(error, failure));
    throw error;
  }
  if (charge.status === 'declined') throw refuse.declined(declinedMessage(charge.failureReason));
  return charge;
}

/** Step 3: any failure before the registration is written gives everything back. */
async function recordUntilRegistered(
  deps: Deps,
  signUp: SignUp,
  charge: Captured,
  registration: RegisterUser,
  context: CommandContext,
): Promise<void> {
  const { store } = deps;
  try {
    await handleCommand(
      store,
      paymentStream(signUp.paymentId),
      paymentDecider,
      chargeRecord(signUp, charge, context),
      context,
    );
    await claimEmail(store, signUp.email, signUp.userId, context);
    await handleCommand(store, userStream(signUp.userId), accountDecider, registration, context);
  } catch (error) {
    // An append whose answer was lost may have been written: a registered user is complete, not given back.
    const registered = await loadState(store, userStream(signUp.userId), accountDecider).then(
      ({ state }) => state.exists,
      () => false,
    );
    if (registered) return;
    await giveBack(deps, signUp, charge, context).catch((failure) => rethrowBoth(error, failure));
    throw error;
  }
}

const chargeRecord = (signUp: SignUp, charge: Captured, context: CommandContext): RecordCharge => ({
  type: 'RecordCharge',
  paymentId: signUp.paymentId,
  userId: signUp.userId,
  requestType: 'membership_signup',
  gatewayCustomerId: signUp.card.customerId,
  amountCents: SITE_PLAN_PRICE_CENTS,
  currency: 'USD',
  cardHolderName: signUp.name,
  email: signUp.email,
  correlationId: context.correlationId ?? context.requestId ?? null,
  result: charge,
  now: context.now,
});

/**
 * The compensation: refund through the gateway (one key per payment, so a repeat refunds once),
 * record the charge and its refund, release the email. Every step runs even when an earlier
 * one failed; the failures are thrown together at the end.
 */
async function giveBack(deps: Deps, signUp: SignUp, charge: Captured, context: CommandContext): Promise<void> {
  const failures: unknown[] = [];
  const step = (run: () => Promise<unknown>) => run().catch((error) => void failures.push(error));
  await step(async () => {
    const refund = await deps.gateway.refund({
      transactionId: charge.transactionId,
      amountCents: SITE_PLAN_PRICE_CENTS,
      idempotencyKey: `refund:${signUp.paymentId}`,
    });
    if (refund.status !== 'succeeded') {
      // The money is still out: at least the charge is on record (reconcile reports it).
      await handleCommand(
        deps.store,
        paymentStream(signUp.paymentId),
        paymentDecider,
        chargeRecord(signUp, charge, context),
        context,
      );
      throw new Error(`the refund of sign-up payment ${signUp.paymentId} was declined: ${refund.failureReason}`);
    }
    const record = {
      type: 'RecordRefund' as const,
      gatewayRefundId: refund.transactionId,
      reason: SIGN_UP_GIVEN_BACK,
      now: context.now,
    };
    await recordRefundedCharge(deps.store, chargeRecord(signUp, charge, context), record, context);
  });
  await step(() => releaseEmail(deps.store, signUp.email, signUp.userId, SIGN_UP_GIVEN_BACK, context));
  if (failures.length) throw new AggregateError(failures, `sign-up ${signUp.userId} could not be fully given back`);
}

/** How long a sign-up may take: a charge recorded this long ago without its user counts as abandoned. */
export const ABANDONED_SIGN_UP_MS = 60 * 60_000;

/**
 * Recovery for a sign-up whose process died after its charge was recorded and before the user
 * was registered (no request is left to give the money back): refunds it, records the refund
 * and frees the email, like the request would have. Run by a ticker on candidates from the
 * payments read model; everything is re-checked here on the streams, and a repeat does nothing.
 */
export async function giveBackAbandonedSignUp(deps: Deps, paymentId: string, now: Date): Promise<boolean> {
  const events = await deps.store.readStream(paymentStream(paymentId));
  const captured = events.find((event) => event.type === 'PaymentCaptured');
  const data = captured?.data as PaymentCapturedData | undefined;
  if (
    !captured ||
    !data ||
    data.requestType !== 'membership_signup' ||
    events.some((event) => event.type === 'PaymentRefunded')
  )
    return false;
  if (now.getTime() - Date.parse(data.at) < ABANDONED_SIGN_UP_MS) return false;
  if ((await loadState(deps.store, userStream(data.userId), accountDecider)).state.exists) return false;
  const signUp: SignUp = {
    userId: data.userId,
    paymentId,
    email: data.email ?? '',
    name: data.cardHolderName ?? '',
    card: { customerId: data.gatewayCustomerId, cardLast4: data.cardLast4, cardBrand: '' },
  };
  const charge: Captured = {
    status: 'succeeded',
    transactionId: data.gatewayTransactionId,
    cardLast4: data.cardLast4,
    raw: data.gatewayResponse,
  };
  const correlationId = (captured.metadata.correlationId as string | undefined) ?? captured.eventId;
  await giveBack(deps, signUp, charge, {
    actorId: 'system:sign-up-recovery',
    correlationId,
    causationId: captured.eventId,
    now,
  });
  return true;
}

function rethrowBoth(error: unknown, failure: unknown): never {
  throw new AggregateError([error, failure], `sign-up failed (${String(error)}) and its compensation failed too`);
}
