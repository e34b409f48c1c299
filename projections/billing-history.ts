import type { Knex } from 'knex';
import type { AccountDeletedData, UserRegisteredData } from '../domain/accounts/events';
import type {
  BillingDirection,
  BillingEntry,
  BillingHistoryPage,
  BillingKind,
  BillingMethod,
  BillingStatus,
  Receipt,
} from '../domain/contracts/billing';
import { formatCents } from '../domain/contracts/money';
import type {
  CreatorSubscriptionRefunded,
  CreatorSubscriptionRenewalDeclined,
  CreatorSubscriptionRenewed,
  CreatorSubscriptionStarted,
} from '../domain/creators/events';
import type {
  CryptoConversionCompletedData,
  CryptoConversionFailedData,
  CryptoConversionRequestedData,
} from '../domain/crypto/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PaymentCardUpdatedData } from '../domain/membership/card-on-file';
import type { MembershipActivatedData, MembershipRenewedData } from '../domain/membership/events';
import type { MessageUnlocked } from '../domain/messaging/events';
import type {
  ChargeDisputedData,
  ChargeRefundedData,
  PaymentAttemptData,
  PaymentFailedData,
  PaymentRefundedData,
} from '../domain/payments/events';
import { DELETED_USER_NAME } from '../domain/privacy/personal-data';
import { deterministicId } from '../domain/shared/ids';
import { flowOfCardPayment, flowOfMovement, flowOfReference } from '../domain/shared/money-flows';
import type { TipGiven } from '../domain/tips/events';
import type { BalanceMovement } from '../domain/wallet/events';
import { billingBatches, type BillingPerson, type InMemory } from './billing-history-batch';
import type { ProjectionContext, Projector } from './engine/projector';
import { displayName } from './users';

/**
 * The `billing_history` read model: one row per money fact of a member, for their billing page
 * and receipts. Charges: site-plan card payments (sign-up, subscribe, renewals; declined ones as
 * failed), the site plan bought from the USD balance, creator-tier charges (renewals by card or
 * from the USD balance; each declined renewal attempt as a row of its own, declined, without a
 * receipt), tips and paid-message unlocks. Credits: crypto conversions into the USD balance,
 * refunds (to the card, or to the USD balance for a period paid from it) and chargebacks, each
 * also marking its charge refunded (or partially). Amounts are positive integer cents with a
 * direction. Row ids are derived from the source fact, so replaying writes the same rows.
 *
 * Wallet movements are no rows of their own: a balance spend or credit is shown through the fact
 * it paid for (MessageUnlocked, TipGiven, CreatorSubscriptionRenewed, CreatorSubscriptionRefunded),
 * and only the site plan bought from the balance, which has no such fact, is taken from its
 * WalletDebited. So a renewal's balance spend handed back unused (`creatorSubscription:<id>:returned`
 * without a renewal) shows nothing, as its spend showed nothing.
 *
 * Receipts keep what was true when the money moved: the creator's name and the card's last 4
 * are stored at the time of the charge (from `billing_history_people`, which follows sign-ups
 * and card changes), so a later rename or new card never rewrites an old receipt.
 *
 * A declined renewal names the tier and price it tried to charge; one from before they were
 * named shows those of the member's last paid charge to that creator.
 */

const SITE_PLAN_MONTHLY = 'Lively site plan, 1 month';
const SITE_PLAN_FROM_BALANCE = 'Lively site plan, 6 months + 1 free';

const rowId = (...source: string[]) => deterministicId('billing-history', ...source);
const sitePlanRowId = (paymentOrPurchaseId: string) => rowId('site_plan', paymentOrPurchaseId);

const occurredAt = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;

interface HistoryRow {
  id: string;
  user_id: string;
  occurred_at: string;
  kind: BillingKind;
  direction: BillingDirection;
  description: string;
  amount_cents: number;
  currency: 'USD';
  method: BillingMethod['type'];
  card_last4: string | null;
  crypto_type: string | null;
  status: BillingStatus;
  /** Why: a declined charge's or a failed conversion's reason, a refund's reason. */
  note: string | null;
  refunded_cents: number;
  refund_of: string | null;
  source_id: string;
  creator_id: string | null;
  creator_name: string | null;
  /** A creator tier's rows: its name (a declined renewal from before its events named one looks it up). */
  tier_name: string | null;
  period_start: string | null;
  period_end: string | null;
}

/**
 * A new row: what every kind leaves unset unless it says otherwise. Object.assign, not
 * `{ ...UNSET, ...fields }`: V8 (Node 20) takes a slow path for a literal of two spreads, tens
 * of microseconds a row, which a rebuild's 300,000 rows turned into seconds.
 */
function row(fields: Omit<HistoryRow, keyof typeof UNSET> & Partial<Pick<HistoryRow, keyof typeof UNSET>>): HistoryRow {
  return Object.assign({}, UNSET, fields);
}
const UNSET = {
  currency: 'USD',
  card_last4: null,
  crypto_type: null,
  note: null,
  refunded_cents: 0,
  refund_of: null,
  creator_id: null,
  creator_name: null,
  tier_name: null,
  period_start: null,
  period_end: null,
} as const;

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('billing_history', (t) => {
    t.uuid('id').primary();
    t.text('user_id').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.text('kind').notNullable();
    t.text('direction').notNullable();
    t.text('description').notNullable();
    t.integer('amount_cents').notNullable();
    t.text('currency').notNullable();
    t.text('method').notNullable();
    t.string('card_last4', 4).nullable();
    t.text('crypto_type').nullable();
    t.text('status').notNullable();
    t.text('note').nullable();
    t.integer('refunded_cents').notNullable();
    t.uuid('refund_of').nullable().index();
    t.text('source_id').notNullable();
    t.text('creator_id').nullable();
    t.text('creator_name').nullable();
    t.text('tier_name').nullable();
    t.timestamp('period_start', { useTz: true }).nullable();
    t.timestamp('period_end', { useTz: true }).nullable();
    // The member's page: newest first, keyset-paged on (occurred_at, id).
    t.index(['user_id', 'occurred_at', 'id']);
    // A creator's stats sum the tips they received.
    t.index(['creator_id', 'kind']);
  });
  await db.schema.withSchema(schema).createTable('billing_history_people', (t) => {
    t.text('user_id').primary();
    t.text('name').notNullable();
    t.string('card_last4', 4).nullable();
  });
}

type Apply = (context: ProjectionContext, event: RecordedEvent) => Promise<void>;

const insert = (context: ProjectionContext, fields: HistoryRow) =>
  context.table('billing_history').insert(fields).onConflict('id').ignore();

function person(context: ProjectionContext, userId: string) {
  return context.table('billing_history_people').where({ user_id: userId }).first<BillingPerson | undefined>();
}

/** A card payment for the site plan: captured (paid) or declined (failed); other card payments (the $0 age check) are no charge. */
function cardPayment(status: 'paid' | 'failed'): InMemory {
  return (memory, event) => {
    const d = event.data as PaymentAttemptData;
    if (flowOfCardPayment(d.requestType) !== 'site_plan') return;
    memory.insert(
      row({
        id: sitePlanRowId(d.paymentId),
        user_id: d.userId,
        occurred_at: d.at,
        kind: 'site_plan',
        direction: 'charge',
        description: d.requestType === 'membership_renewal' ? `${SITE_PLAN_MONTHLY} (renewal)` : SITE_PLAN_MONTHLY,
        amount_cents: d.amountCents,
        method: 'card',
        card_last4: d.cardLast4 || null,
        status,
        note: status === 'failed' ? (d as PaymentFailedData).failureReason : null,
        source_id: d.paymentId,
      }),
    );
  };
}

/** Money given back on a charge: a refund (by the product, staff or the money-back guarantee) or a chargeback. */
interface GivenBack {
  kind: 'refund' | 'chargeback';
  /** The charge's source id (payment, subscription or renewal id) and its member. */
  chargeId: string;
  userId: string | null;
  /** The refund's or dispute's id: one row each. */
  givenBackId: string;
  amountCents: number;
  at: string;
  note: string;
  /** Given back to the USD balance (a period paid from it), not to the way the charge was paid. */
  toBalance: boolean;
}

function givenBackOf(event: RecordedEvent): GivenBack | null {
  switch (event.type) {
    case 'PaymentRefunded': {
      const d = event.data as PaymentRefundedData;
      return {
        kind: 'refund',
        chargeId: d.paymentId,
        userId: d.userId,
        givenBackId: d.gatewayRefundId,
        amountCents: d.amountCents,
        at: d.at,
        note: d.reason,
        toBalance: false,
      };
    }
    case 'ChargeRefunded': {
      const d = event.data as ChargeRefundedData;
      return {
        kind: 'refund',
        chargeId: d.charge.chargeId,
        userId: d.charge.userId,
        givenBackId: d.gatewayRefundId,
        amountCents: d.amountCents,
        at: d.at,
        note: d.reason,
        toBalance: false,
      };
    }
    case 'CreatorSubscriptionRefunded': {
      const d = event.data as CreatorSubscriptionRefunded['data'];
      const chargeId = flowOfReference(d.saleReference)?.id ?? d.subscriptionId;
      // A period paid from the USD balance goes back to it: no gateway refund, its wallet credit names it.
      return {
        kind: 'refund',
        chargeId,
        userId: d.subscriberId,
        givenBackId: d.gatewayRefundId ?? d.balanceReference!,
        amountCents: d.amountCents,
        at: d.at,
        note: d.reason,
        toBalance: d.paidFrom === 'balance',
      };
    }
    case 'ChargeDisputed': {
      const d = event.data as ChargeDisputedData;
      return {
        kind: 'chargeback',
        chargeId: d.charge.chargeId,
        userId: d.charge.userId,
        givenBackId: d.disputeId,
        amountCents: d.amountCents,
        at: d.at,
        note: `Chargeback: ${d.reason}`,
        toBalance: false,
      };
    }
    default:
      return null;
  }
}

/**
 * A refund or chargeback: a credit row of its own (one per refund or dispute id, so the same
 * refund seen through two events is one row), and its charge's refunded total and status from
 * every credit against it. Applied alone: the charge is found by its source, not its row id.
 */
const moneyGivenBack: Apply = async (context, event) => {
  const given = givenBackOf(event);
  if (!given || given.amountCents <= 0) return;
  const query = context
    .table('billing_history')
    .where({ source_id: given.chargeId, direction: 'charge' })
    .whereNot({ status: 'declined' });
  const charge = await (given.userId ? query.where({ user_id: given.userId }) : query).first<HistoryRow>();
  if (!charge) return; // a refund of a payment that was no charge of a member
  const label = given.kind === 'refund' ? 'Refund' : 'Chargeback';
  await insert(
    context,
    row({
      id: rowId(given.kind, given.chargeId, given.givenBackId),
      user_id: charge.user_id,
      occurred_at: given.at,
      kind: given.kind,
      direction: 'credit',
      description: `${label}: ${charge.description}`,
      amount_cents: given.amountCents,
      method: given.toBalance ? 'usd_balance' : charge.method,
      card_last4: given.toBalance ? null : charge.card_last4,
      status: 'credited',
      note: given.note,
      refund_of: charge.id,
      source_id: given.chargeId,
      creator_id: charge.creator_id,
      creator_name: charge.creator_name,
    }),
  );
  const total = await context.table('billing_history').where({ refund_of: charge.id }).sum({ cents: 'amount_cents' });
  const refunded = Number(total[0]?.cents ?? 0);
  await context
    .table('billing_history')
    .where({ id: charge.id })
    .update({ refunded_cents: refunded, status: refunded >= charge.amount_cents ? 'refunded' : 'partially_refunded' });
};

/** The site plan bought from the USD balance (the only member charge taken as a balance debit row here). */
const walletDebited: InMemory = (memory, event) => {
  const d = event.data as BalanceMovement;
  const flow = flowOfMovement(d);
  // Unlocks, tips and tier renewals are recorded from their own facts (MessageUnlocked, TipGiven,
  // CreatorSubscriptionRenewed), which name the creator; a plan spend without a purchase id has no row key.
  if (flow?.flow !== 'site_plan' || !flow.id) return;
  memory.insert(
    row({
      id: sitePlanRowId(flow.id),
      user_id: d.userId,
      occurred_at: occurredAt(event),
      kind: 'site_plan',
      direction: 'charge',
      description: SITE_PLAN_FROM_BALANCE,
      amount_cents: d.amountCents,
      method: 'usd_balance',
      status: 'paid',
      source_id: flow.id,
    }),
  );
};

/** The period a site-plan charge paid for, once the membership took it (activation or renewal). */
const periodPaid: InMemory = (memory, event) => {
  const d = event.data as MembershipActivatedData | MembershipRenewedData;
  memory.update(sitePlanRowId(d.paymentId), { period_start: d.periodStart, period_end: d.periodEnd });
};

const creatorSubscriptionStarted: InMemory = (memory, event) => {
  const d = event.data as CreatorSubscriptionStarted['data'];
  const creator = memory.person(d.creatorId);
  const subscriber = memory.person(d.subscriberId);
  const creatorName = creator?.name ?? 'a creator';
  memory.insert(
    row({
      id: rowId('tier_subscription', d.subscriptionId),
      user_id: d.subscriberId,
      occurred_at: d.startDate,
      kind: 'tier_subscription',
      direction: 'charge',
      description: `Subscription to ${creatorName} – ${d.tierName}, 1 month`,
      tier_name: d.tierName,
      amount_cents: d.priceCents,
      method: 'card',
      card_last4: subscriber?.card_last4 ?? null,
      status: 'paid',
      source_id: d.subscriptionId,
      creator_id: d.creatorId,
      creator_name: creator?.name ?? null,
      period_start: d.startDate,
      period_end: d.endDate,
    }),
  );
};

/**
 * A renewal of a creator tier: a charge row of its own (its source is the renewal, as its refund
 * names it), on the card or from the USD balance (then its WalletDebited makes no row).
 */
const creatorSubscriptionRenewed: InMemory = (memory, event) => {
  const d = event.data as CreatorSubscriptionRenewed['data'];
  const fromBalance = d.paidFrom === 'balance';
  const creator = memory.person(d.creatorId);
  const subscriber = memory.person(d.subscriberId);
  memory.insert(
    row({
      id: rowId('tier_subscription', d.renewalId),
      user_id: d.subscriberId,
      occurred_at: d.renewedAt,
      kind: 'tier_subscription',
      direction: 'charge',
      description: `Subscription to ${creator?.name ?? 'a creator'} – ${d.tierName}, monthly renewal`,
      tier_name: d.tierName,
      amount_cents: d.priceCents,
      method: fromBalance ? 'usd_balance' : 'card',
      card_last4: fromBalance ? null : (subscriber?.card_last4 ?? null),
      status: 'paid',
      source_id: d.renewalId,
      creator_id: d.creatorId,
      creator_name: creator?.name ?? null,
      period_start: d.periodStart,
      period_end: d.periodEnd,
    }),
  );
};

type Declined = CreatorSubscriptionRenewalDeclined['data'];
type Tried = Pick<HistoryRow, 'tier_name' | 'amount_cents'>;

/**
 * A renewal attempt the card (or the balance) refused: a row of its own per attempt (attempts 1
 * to 4 of a period), declined, at what it tried to charge (the tier of the next period at the
 * creator's price of the day, as the renewal process named it).
 */
function declinedRow(d: Declined, tried: Tried, creator?: BillingPerson, subscriber?: BillingPerson): HistoryRow {
  const fromBalance = d.paidFrom === 'balance';
  return row({
    id: rowId('tier_renewal_declined', d.subscriptionId, d.periodEnd, String(d.attempt)),
    user_id: d.subscriberId,
    occurred_at: d.at,
    kind: 'tier_subscription',
    direction: 'charge',
    description: `Subscription to ${creator?.name ?? 'a creator'} – ${tried.tier_name}, monthly renewal (attempt ${d.attempt})`,
    tier_name: tried.tier_name,
    amount_cents: tried.amount_cents,
    method: fromBalance ? 'usd_balance' : 'card',
    card_last4: fromBalance ? null : (subscriber?.card_last4 ?? null),
    status: 'declined',
    note: d.failureReason,
    // Not the renewal's id: a refund finds its charge by source, and an attempt took no money.
    source_id: `${d.subscriptionId}:${d.periodEnd}:${d.attempt}`,
    creator_id: d.creatorId,
    creator_name: creator?.name ?? null,
  });
}

/** Whether the declined attempt names the tier and price it tried (every one since they were named). */
const namesItsTry = (d: Declined) => d.tierName !== undefined && d.priceCents !== undefined;

const creatorSubscriptionRenewalDeclined: InMemory = (memory, event) => {
  const d = event.data as Declined;
  const tried = { tier_name: d.tierName!, amount_cents: d.priceCents! };
  if (!tried.tier_name) return; // an unnamed tier: nothing to show it as
  memory.insert(declinedRow(d, tried, memory.person(d.creatorId), memory.person(d.subscriberId)));
};

/**
 * A declined attempt from before declines named their try, priced at the member's last paid
 * charge to the creator: applied alone, as that charge is found by member and creator.
 */
const renewalDeclinedUnnamed: Apply = async (context, event) => {
  const d = event.data as Declined;
  const tried = await lastPaidTier(context, d.subscriberId, d.creatorId);
  if (!tried?.tier_name) return; // no charge of it seen: nothing to price it at
  const [creator, subscriber] = await Promise.all([person(context, d.creatorId), person(context, d.subscriberId)]);
  await insert(context, declinedRow(d, tried, creator, subscriber));
};

/** The tier and amount of the member's last paid charge to the creator (a decline from before declines named theirs). */
function lastPaidTier(context: ProjectionContext, subscriberId: string, creatorId: string) {
  return context
    .table('billing_history')
    .where({ user_id: subscriberId, creator_id: creatorId, kind: 'tier_subscription', status: 'paid' })
    .orderBy('occurred_at', 'desc')
    .first<Tried | undefined>('tier_name', 'amount_cents');
}

const messageUnlocked: InMemory = (memory, event) => {
  const d = event.data as MessageUnlocked['data'];
  const creator = memory.person(d.senderId);
  memory.insert(
    row({
      id: rowId('message_unlock', d.messageId),
      user_id: d.receiverId,
      occurred_at: d.unlockedAt,
      kind: 'message_unlock',
      direction: 'charge',
      description: `Unlocked message from ${creator?.name ?? 'a creator'}`,
      amount_cents: d.priceCents,
      method: 'usd_balance',
      status: 'paid',
      source_id: d.messageId,
      creator_id: d.senderId,
      creator_name: creator?.name ?? null,
    }),
  );
};

const tipGiven: InMemory = (memory, event) => {
  const d = event.data as TipGiven['data'];
  const creator = memory.person(d.creatorId);
  const tipper = memory.person(d.tipperId);
  const card = d.source === 'card';
  memory.insert(
    row({
      id: rowId('tip', d.tipId),
      user_id: d.tipperId,
      occurred_at: d.givenAt,
      kind: 'tip',
      direction: 'charge',
      description: `Tip to ${creator?.name ?? 'a creator'}`,
      amount_cents: d.amountCents,
      method: card ? 'card' : 'usd_balance',
      card_last4: card ? (tipper?.card_last4 ?? null) : null,
      status: 'paid',
      source_id: d.tipId,
      creator_id: d.creatorId,
      creator_name: creator?.name ?? null,
    }),
  );
};

const conversionRequested: InMemory = (memory, event) => {
  const d = event.data as CryptoConversionRequestedData;
  memory.insert(
    row({
      id: rowId('crypto_conversion', d.transactionId),
      user_id: d.userId,
      occurred_at: d.requestedAt,
      kind: 'crypto_conversion',
      direction: 'credit',
      description: `${d.cryptoType} → USD conversion`,
      amount_cents: d.netCents,
      method: 'crypto',
      crypto_type: d.cryptoType,
      status: 'pending',
      source_id: d.transactionId,
    }),
  );
};

const conversionSettled: InMemory = (memory, event) => {
  const d = event.data as CryptoConversionCompletedData | CryptoConversionFailedData;
  const failed = event.type === 'CryptoConversionFailed';
  memory.update(
    rowId('crypto_conversion', d.transactionId),
    failed
      ? { status: 'failed', note: (d as CryptoConversionFailedData).failureReason }
      : { status: 'credited', amount_cents: (d as CryptoConversionCompletedData).netCents },
  );
};

const userRegistered: InMemory = (memory, event) => {
  const d = event.data as UserRegisteredData;
  memory.putPerson(d.userId, {
    name: displayName({ first_name: d.firstName, last_name: d.lastName }, d.email),
    card_last4: d.cardLast4 || null,
  });
};

const cardUpdated: InMemory = (memory, event) => {
  const d = event.data as PaymentCardUpdatedData;
  memory.updatePerson(d.userId, { card_last4: d.cardLast4 });
};

/**
 * Issue 23: a deleted person is named "Deleted user" from now on, as UserRegistered replays once
 * their key is gone; the receipts of others that name them as the creator say so too (the name's
 * first place in the description, where it was written). Amounts and ids stay. Applied alone:
 * the receipts are found by creator.
 */
const accountDeleted: Apply = async ({ table, trx }, event) => {
  const { userId } = event.data as AccountDeletedData;
  await table('billing_history_people').where({ user_id: userId }).update({ name: DELETED_USER_NAME });
  await table('billing_history')
    .where({ creator_id: userId })
    .whereNot({ creator_name: DELETED_USER_NAME })
    .whereRaw('strpos(description, creator_name) > 0')
    .update({
      description: trx.raw(
        'overlay(description placing ? from strpos(description, creator_name) for length(creator_name))',
        [DELETED_USER_NAME],
      ),
      creator_name: DELETED_USER_NAME,
    });
};

/** The events applied in memory, a run of them at a time: they read and write rows by key only. */
const IN_MEMORY: Record<string, InMemory> = {
  UserRegistered: userRegistered,
  PaymentCardUpdated: cardUpdated,
  PaymentCaptured: cardPayment('paid'),
  PaymentFailed: cardPayment('failed'),
  WalletDebited: walletDebited,
  MembershipActivated: periodPaid,
  MembershipRenewed: periodPaid,
  CreatorSubscriptionStarted: creatorSubscriptionStarted,
  CreatorSubscriptionRenewed: creatorSubscriptionRenewed,
  CreatorSubscriptionRenewalDeclined: creatorSubscriptionRenewalDeclined,
  MessageUnlocked: messageUnlocked,
  TipGiven: tipGiven,
  CryptoConversionRequested: conversionRequested,
  CryptoConversionCompleted: conversionSettled,
  CryptoConversionFailed: conversionSettled,
};

/** The events that find rows by something else than their key: each applied alone, in its place. */
const ALONE: Record<string, Apply> = {
  AccountDeleted: accountDeleted,
  PaymentRefunded: moneyGivenBack,
  ChargeRefunded: moneyGivenBack,
  ChargeDisputed: moneyGivenBack,
  CreatorSubscriptionRefunded: moneyGivenBack,
};

const aloneFor = (event: RecordedEvent): Apply | undefined =>
  event.type === 'CreatorSubscriptionRenewalDeclined' && !namesItsTry(event.data as Declined)
    ? renewalDeclinedUnnamed
    : ALONE[event.type];

export const billingHistoryProjector: Projector = {
  name: 'billing-history',
  // 3: declined creator renewals; renewals paid from, and refunded to, the USD balance (issue 21).
  // 4: indexed by creator (the stats' tips); declined renewals priced by their events, without
  // the two tables that worked the price out again. 5: AccountDeleted (issue 23).
  version: 5,
  tables: ['billing_history', 'billing_history_people'],
  eventTypes: [...Object.keys(IN_MEMORY), ...Object.keys(ALONE)],
  createTables,
  // Refunds find their charge by member and source and sum its credits through refund_of; a
  // deleted creator's receipts are found by creator.
  appliesThroughIndexes: true,
  // Money facts arrive by the hundred thousand in a rebuild (sign-ups, subscriptions, unlocks):
  // one statement or more each took most of its time.
  ...billingBatches(IN_MEMORY, aloneFor),
};

// ---------------------------------------------------------------------------------------------
// Queries

interface Cursor {
  at: string;
  id: string;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const encodeCursor = (cursor: Cursor) => Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url');

/** The (occurred_at, id) of the last row shown; null when the text is no cursor of ours. */
export function decodeBillingCursor(text: string): Cursor | null {
  const [at, id, extra] = Buffer.from(text, 'base64url').toString().split('|');
  return at && id && extra === undefined && UUID.test(id) && !Number.isNaN(Date.parse(at))
    ? { at: new Date(at).toISOString(), id }
    : null;
}

const iso = (value: unknown) => new Date(value as string).toISOString();
const isoOrNull = (value: unknown) => (value ? iso(value) : null);

function methodOf(r: HistoryRow): BillingMethod {
  if (r.method === 'card') return { type: 'card', cardLast4: r.card_last4 };
  if (r.method === 'crypto') return { type: 'crypto', cryptoType: r.crypto_type ?? 'crypto' };
  return { type: 'usd_balance' };
}

/** A charge has a receipt; a declined renewal attempt took no money and has none. */
const hasReceipt = (r: HistoryRow) => r.direction === 'charge' && r.status !== 'declined';

/**
 * Why a row did not go through, for the member: a declined renewal attempt's reason, or a failed
 * site-plan card payment's (its receipt prints the same). The processor's decline text, or one of
 * the product's own ("No card on file", the member's USD balance against the price), nothing more.
 * Other notes stay out: a refund's or chargeback's reason explains no failure (the charge's
 * receipt lists it), and a failed conversion's is the crypto processor's own text, which the
 * member is shown nowhere else.
 */
const detailOf = (r: HistoryRow) =>
  r.status === 'declined' || (r.status === 'failed' && r.kind === 'site_plan') ? r.note : null;

function entryView(r: HistoryRow): BillingEntry {
  return {
    id: r.id,
    occurredAt: iso(r.occurred_at),
    kind: r.kind,
    description: r.description,
    direction: r.direction,
    amount: formatCents(r.amount_cents),
    currency: 'USD',
    method: methodOf(r),
    status: r.status,
    hasReceipt: hasReceipt(r),
    detail: detailOf(r),
  };
}

/** One member's money facts, newest first, keyset-paged on (occurred_at, id). */
export async function billingHistoryPage(
  db: Knex,
  userId: string,
  options: { cursor: Cursor | null; limit: number },
): Promise<BillingHistoryPage> {
  const { cursor, limit } = options;
  const query = db('billing_history').where({ user_id: userId });
  if (cursor) query.andWhereRaw('(occurred_at, id) < (?::timestamptz, ?::uuid)', [cursor.at, cursor.id]);
  const rows: HistoryRow[] = await query
    .orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    entries: page.map(entryView),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: iso(last.occurred_at), id: last.id }) : null,
  };
}

/** "LV-20260301-1A2B3C4D": the day and the start of the row id, so it reads well on paper. */
const receiptNumber = (r: HistoryRow) =>
  `LV-${iso(r.occurred_at).slice(0, 10).replace(/-/g, '')}-${r.id.slice(0, 8).toUpperCase()}`;

/**
 * The receipt of one of the member's own charges; null for anything else (another member's id,
 * a credit, a declined renewal attempt, an unknown id), so the route answers all of them with the same 404.
 */
export async function findReceipt(db: Knex, userId: string, id: string): Promise<Receipt | null> {
  if (!UUID.test(id)) return null;
  const charge: HistoryRow | undefined = await db('billing_history')
    .where({ id, user_id: userId, direction: 'charge' })
    .whereNot({ status: 'declined' })
    .first();
  if (!charge) return null;
  // Billed to the member as they are now (the users read model), for the item as it was then.
  const member = await db('users').where({ id: userId }).first('first_name', 'last_name', 'email');
  const refunds: HistoryRow[] = await db('billing_history').where({ refund_of: id }).orderBy(['occurred_at', 'id']);
  return {
    id: charge.id,
    number: receiptNumber(charge),
    issuedAt: iso(charge.occurred_at),
    member: { name: displayName(member ?? { first_name: null, last_name: null }), email: member?.email ?? '' },
    kind: charge.kind,
    item: charge.description,
    periodStart: isoOrNull(charge.period_start),
    periodEnd: isoOrNull(charge.period_end),
    amount: formatCents(charge.amount_cents),
    currency: 'USD',
    method: methodOf(charge),
    status: charge.status,
    failureReason: charge.status === 'failed' ? charge.note : null,
    refunds: refunds.map((refund) => ({
      id: refund.id,
      refundedAt: iso(refund.occurred_at),
      amount: formatCents(refund.amount_cents),
      reason: refund.note,
    })),
    refundedAmount: formatCents(charge.refunded_cents),
  };
}
