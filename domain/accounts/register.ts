import { WrongExpectedRevisionError, type EventStore, type Position } from '../event-store/port';
import { membershipDecider } from '../membership/decider';
import { MONTHLY_PRICE_CENTS, membershipStream } from '../membership/events';
import { paymentDecider } from '../payments/decider';
import { paymentStream } from '../payments/events';
import { PaymentDeclinedError, type PaymentGateway } from '../payments/gateway';
import { handleCommand, metadataFor, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { accountDecider } from './decider';
import { emailStream, userStream, type EmailClaimed } from './events';
import { userIdForEmail } from './lookup';

export const EMAIL_TAKEN = 'An account with this email already exists';
export const WELCOME_MESSAGE = 'Your account has been created and subscription is active.';

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

/**
 * Sign-up with card (SPEC §2 Register): save the card and charge the first month through the
 * gateway, then claim the email, register the user (age verified by the card) and activate one
 * month of membership. A decline happens before anything is written, so it leaves nothing.
 * Two concurrent sign-ups with one email both charge, but only one claims the email
 * (expected revision no_stream); the other's charge is refunded and it gets the 409.
 */
export async function registerUser(
  deps: { store: EventStore; gateway: PaymentGateway },
  input: RegisterInput,
  context: CommandContext,
): Promise<{ userId: string; position: Position }> {
  const { store, gateway } = deps;
  if (await userIdForEmail(store, input.email)) throw refuse.conflict(EMAIL_TAKEN);

  const userId = newId();
  const paymentId = newId();
  const name = `${input.firstName} ${input.lastName}`;
  let card;
  try {
    card = await gateway.createCustomer({ email: input.email, name, paymentToken: input.paymentToken, idempotencyKey: `customer:${userId}` });
  } catch (error) {
    if (error instanceof PaymentDeclinedError) throw refuse.declined(declinedMessage(error.reason));
    throw error;
  }
  const charge = await gateway.charge({
    customerId: card.customerId,
    amountCents: MONTHLY_PRICE_CENTS,
    currency: 'USD',
    description: 'Lively official membership subscription (monthly)',
    idempotencyKey: `signup:${paymentId}`,
  });
  if (charge.status === 'declined') throw refuse.declined(declinedMessage(charge.failureReason));

  const claim: EmailClaimed = { type: 'EmailClaimed', data: { userId, email: input.email, at: context.now.toISOString() } };
  try {
    await store.append(emailStream(input.email), [{ ...claim, metadata: metadataFor(context) }], { expectedRevision: 'no_stream' });
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
    await gateway.refund({ transactionId: charge.transactionId, amountCents: MONTHLY_PRICE_CENTS, idempotencyKey: `refund:${paymentId}` });
    throw refuse.conflict(EMAIL_TAKEN);
  }

  await handleCommand(store, userStream(userId), accountDecider, {
    type: 'RegisterUser',
    userId,
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: input.passwordHash,
    gatewayCustomerId: card.customerId,
    cardLast4: card.cardLast4,
    now: context.now,
  }, context);
  await handleCommand(store, paymentStream(paymentId), paymentDecider, {
    type: 'RecordCharge',
    paymentId,
    userId,
    requestType: 'membership_signup',
    gatewayCustomerId: card.customerId,
    amountCents: MONTHLY_PRICE_CENTS,
    currency: 'USD',
    cardHolderName: name,
    email: input.email,
    correlationId: context.correlationId ?? context.requestId ?? null,
    result: charge,
    now: context.now,
  }, context);
  const activated = await handleCommand(store, membershipStream(userId), membershipDecider, {
    type: 'ActivateMembership',
    userId,
    paymentId,
    source: 'card',
    months: 1,
    now: context.now,
  }, context);
  // Nothing written: the activation process got there first; wait for its event instead.
  const position = activated.position ?? (await store.readStream(membershipStream(userId))).at(-1)!.position;
  return { userId, position };
}
