import { Router, type Request } from 'express';
import type { Knex } from 'knex';
import type { CurrentUser } from '../../domain/contracts/accounts';
import { paymentAccountSchema, payoutRequestSchema, type PaymentAccountView, type PayoutDashboard, type PayoutView } from '../../domain/contracts/payouts';
import { refuse } from '../../domain/shared/errors';
import { addPaymentAccount, requestPayout } from '../../domain/payouts/commands';
import type { PaymentAccountAddedData, PayoutRequestedData } from '../../domain/payouts/events';
import type { PayoutGateway } from '../../domain/payouts/gateway';
import { formatCents } from '../../domain/payouts/money';
import { creatorBalances } from '../../projections/creator-balances';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import { userExists } from '../../projections/users';
import { requestUser } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Creator payouts (SPEC §2 Payouts, §7): dashboard, payment accounts, payout requests and history. */

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function payoutView(row: Record<string, any>): PayoutView {
  return {
    id: row.id,
    creatorId: row.creator_id,
    paymentAccountId: row.payment_account_id,
    amount: formatCents(row.amount_cents),
    processingFee: formatCents(row.processing_fee_cents),
    netAmount: formatCents(row.net_amount_cents),
    currency: 'USD',
    status: row.status,
    gatewayTransactionId: row.gateway_transaction_id,
    failureReason: row.failure_reason,
    processedAt: iso(row.processed_at),
    createdAt: iso(row.created_at)!,
  };
}

export function paymentAccountView(row: Record<string, any>): PaymentAccountView {
  return {
    id: row.id,
    type: row.type,
    accountHolderName: row.account_holder_name,
    bankAccountLast4: row.bank_account_last4,
    routingNumber: row.routing_number ? `*****${String(row.routing_number).slice(-4)}` : null,
    stripeAccountId: row.stripe_account_id,
    isDefault: row.is_default,
    isVerified: row.is_verified,
    verificationStatus: row.verification_status ?? (row.is_verified ? 'verified' : 'pending'),
    verificationFailureReason: row.verification_failure_reason ?? null,
    createdAt: iso(row.created_at)!,
  };
}

async function signedIn(db: Knex, req: Request): Promise<CurrentUser> {
  const user = await requestUser(db, req);
  if (!user) throw refuse.unauthorized();
  return user;
}

const creatorOnly = () => refuse.forbidden('Creator access required: you need to be a creator to use payouts', { code: 'CREATOR_REQUIRED' });

/** The creator themselves, or finance staff; everyone else 403. Unknown users 404 (staff only learn that). */
async function selfCreatorOrStaff(db: Knex, req: Request): Promise<string> {
  const user = await signedIn(db, req);
  const userId = String(req.params.userId);
  if (user.role === 'admin') {
    if (!(await userExists(db, userId))) throw refuse.notFound('User not found');
    return userId;
  }
  if (user.id !== userId) throw refuse.forbidden('You may only see your own payouts');
  if (!user.isCreator) throw creatorOnly();
  return userId;
}

async function signedInCreator(db: Knex, req: Request): Promise<CurrentUser> {
  const user = await signedIn(db, req);
  if (!user.isCreator) throw creatorOnly();
  return user;
}

export const PAYOUT_READ_MODELS = ['payouts', 'payment_accounts', 'creator_balances'];

export function payoutRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const gateway = () => api.deps.ports.payoutGateway as PayoutGateway;
  // Read-your-writes on just the read models these routes answer from (not every projection).
  const settled = (position: Parameters<typeof api.readYourWrites>[0]) => waitForProjections(db, PAYOUT_READ_MODELS, position, 10_000);

  router.get('/payouts/:userId/dashboard', async (req, res) => {
    const userId = await selfCreatorOrStaff(db, req);
    const balances = await creatorBalances(db, userId, api.deps.clock());
    const body: PayoutDashboard = {
      availableBalance: formatCents(Math.max(0, balances.availableCents)),
      pendingBalance: formatCents(balances.pendingCents),
      totalEarnings: formatCents(balances.totalEarningsCents),
      nextPayoutDate: balances.nextAvailableAt,
    };
    res.json(body);
  });

  router.get('/payment-accounts/:userId', async (req, res) => {
    const userId = await selfCreatorOrStaff(db, req);
    const rows = await db('payment_accounts').where({ creator_id: userId }).orderBy([{ column: 'is_default', order: 'desc' }, { column: 'created_at', order: 'asc' }]);
    res.json(rows.map(paymentAccountView));
  });

  router.get('/payouts/:userId', async (req, res) => {
    const userId = await selfCreatorOrStaff(db, req);
    const rows = await db('payouts').where({ creator_id: userId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    res.json(rows.map(payoutView));
  });

  router.post('/payment-accounts', idempotency(db), async (req, res) => {
    const user = await signedInCreator(db, req);
    const input = parseWith(paymentAccountSchema, req.body);
    const result = await addPaymentAccount(store, gateway(), user.id, input, api.context(req));
    await settled(result.position);
    // From the read model when it has caught up, else straight from the event just written.
    const added = result.events.find((event) => event.type === 'PaymentAccountAdded')?.data as PaymentAccountAddedData | undefined;
    const row = (await db('payment_accounts').where({ id: result.paymentAccountId }).first()) ?? (added && {
      id: added.paymentAccountId, type: added.type, account_holder_name: added.accountHolderName, bank_account_last4: added.bankAccountLast4,
      routing_number: added.routingNumber, stripe_account_id: added.stripeAccountId, is_default: added.isDefault, is_verified: added.isVerified,
      verification_status: added.isVerified ? 'verified' : 'pending', verification_failure_reason: null, created_at: added.addedAt,
    });
    res.status(201).json(paymentAccountView(row));
  });

  router.post('/payouts', idempotency(db), async (req, res) => {
    const user = await signedInCreator(db, req);
    const input = parseWith(payoutRequestSchema, req.body);
    if (input.amount <= 0) throw refuse.validation('Amount must be greater than 0', { amount: 'Amount must be greater than 0' });
    const result = await requestPayout(store, user.id, { paymentAccountId: input.paymentAccountId, amountCents: input.amount }, api.context(req));
    await settled(result.position);
    const requested = result.events.find((event) => event.type === 'PayoutRequested')?.data as PayoutRequestedData;
    const row = (await db('payouts').where({ id: result.payoutId }).first()) ?? {
      id: requested.payoutId, creator_id: requested.creatorId, payment_account_id: requested.paymentAccountId, amount_cents: requested.amountCents,
      processing_fee_cents: requested.processingFeeCents, net_amount_cents: requested.netAmountCents, status: 'pending', gateway_transaction_id: null,
      failure_reason: null, processed_at: null, created_at: requested.requestedAt,
    };
    res.status(201).json(payoutView(row));
  });

  return router;
}
