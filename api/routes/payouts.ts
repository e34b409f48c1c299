import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { CurrentUser } from '../../domain/contracts/accounts';
import { paymentAccountSchema, payoutRequestSchema, type PayoutDashboard } from '../../domain/contracts/payouts';
import { refuse } from '../../domain/shared/errors';
import { formatCents } from '../../domain/contracts/money';
import { addPaymentAccount, requestPayout, type PayoutGateway } from '../../domain/payouts/commands';
import { twoFactorStatus } from '../../domain/accounts/commands';
import { accountStanding } from '../../domain/safety/commands';
import type { EventStore } from '../../domain/event-store/port';
import { creatorBalances } from '../../projections/creator-balances';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import { findPaymentAccount, paymentAccountsOfCreator } from '../../projections/payment-accounts';
import { findPayout, payoutsOfCreator } from '../../projections/payouts';
import { userExists } from '../../projections/users';
import { checkAsGate, signedInUser } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import { requireVerifiedIdentity } from '../http/identity-gate';
import type { Api } from '../kit';

/** Creator payouts (SPEC §2 Payouts, §7): dashboard, payment accounts, payout requests and history. */

const creatorOnly = () =>
  refuse.forbidden('Creator access required: you need to be a creator to use payouts', { code: 'CREATOR_REQUIRED' });

/** The creator themselves, or finance staff; everyone else 403. Unknown users 404 (staff only learn that). */
async function selfCreatorOrStaff(db: Knex, req: Request): Promise<string> {
  const user = await signedInUser(db, req);
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
  const user = await signedInUser(db, req);
  if (!user.isCreator) throw creatorOnly();
  return user;
}

/** Money leaves the platform only from accounts with two-factor on (a stolen password is not enough). */
async function requireTwoFactor(store: EventStore, userId: string, action: string): Promise<void> {
  if (!(await twoFactorStatus(store, userId)).enabled)
    throw refuse.forbidden(`Turn on two-factor authentication to ${action}`, { code: 'TWO_FACTOR_REQUIRED' });
}

/**
 * Answers a command from the read model once it has applied it (read-your-writes waited for
 * it): 201 with the view. When the read models are more than the wait behind, the command
 * still happened: 202 with its id, never a 500 (a retry would then look like a new request)
 * and never a view made up in the route.
 */
function answerFromReadModel<View>(res: Response, view: View | null, id: string): void {
  if (view) res.status(201).json(view);
  else res.status(202).json({ id, status: 'pending', message: 'Recorded; it will show in a moment.' });
}

/**
 * A banned creator's money is held and a suspended one's waits (issue 20): neither requests a
 * payout. Read from the account's standing itself, so a session used in the moment before it
 * was ended is refused too.
 */
async function requireGoodStanding(store: EventStore, userId: string, now: Date): Promise<void> {
  const { status, suspendedUntil } = await accountStanding(store, userId, now);
  if (status === 'banned')
    throw refuse.forbidden('Your payouts are held: your account is banned (trust and safety)', { code: 'PAYOUT_HELD' });
  if (status === 'suspended')
    throw refuse.forbidden(
      suspendedUntil
        ? `Payouts are paused while your account is suspended (until ${suspendedUntil.slice(0, 10)})`
        : 'Payouts are paused while your account is suspended pending review',
      { code: 'ACCOUNT_SUSPENDED' },
    );
}

export const PAYOUT_READ_MODELS = ['payouts', 'payment_accounts', 'creator_balances'];

export function payoutRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const gateway = () => api.deps.ports.payoutGateway as PayoutGateway;
  // Read-your-writes on just the read models these routes answer from (not every projection).
  const settled = (position: Parameters<typeof api.readYourWrites>[0]) =>
    waitForProjections(db, PAYOUT_READ_MODELS, position, 10_000);

  // A page read's gate: it runs on the session the read resolved, before any row is answered.
  const selfCreatorOrStaffOnly = [checkAsGate((req) => selfCreatorOrStaff(db, req))];
  api.pageRead('/payouts/:userId/dashboard', selfCreatorOrStaffOnly, async (req, read) => {
    const balances = await creatorBalances(read, String(req.params.userId), api.deps.clock());
    const body: PayoutDashboard = {
      availableBalance: formatCents(Math.max(0, balances.availableCents)),
      pendingBalance: formatCents(balances.pendingCents),
      totalEarnings: formatCents(balances.totalEarningsCents),
      nextPayoutDate: balances.nextAvailableAt,
    };
    return body;
  });

  router.get('/payment-accounts/:userId', async (req, res) => {
    const userId = await selfCreatorOrStaff(db, req);
    res.json(await paymentAccountsOfCreator(db, userId));
  });

  api.pageRead('/payouts/:userId', selfCreatorOrStaffOnly, async (req, read) =>
    payoutsOfCreator(read, String(req.params.userId)),
  );

  router.post('/payment-accounts', idempotency(db), async (req, res) => {
    const user = await signedInCreator(db, req);
    const input = parseWith(paymentAccountSchema, req.body);
    await requireTwoFactor(store, user.id, 'add a payment account');
    const result = await addPaymentAccount(store, gateway(), user.id, input, api.context(req));
    await settled(result.position);
    answerFromReadModel(res, await findPaymentAccount(db, result.paymentAccountId), result.paymentAccountId);
  });

  router.post('/payouts', idempotency(db), async (req, res) => {
    const user = await signedInCreator(db, req);
    const input = parseWith(payoutRequestSchema, req.body);
    if (input.amount <= 0)
      throw refuse.validation('Amount must be greater than 0', { amount: 'Amount must be greater than 0' });
    await requireGoodStanding(store, user.id, api.deps.clock());
    await requireTwoFactor(store, user.id, 'request a payout');
    await requireVerifiedIdentity(db, user.id, 'request payouts');
    const result = await requestPayout(
      store,
      user.id,
      { paymentAccountId: input.paymentAccountId, amountCents: input.amount },
      api.context(req),
    );
    await settled(result.position);
    answerFromReadModel(res, await findPayout(db, result.payoutId), result.payoutId);
  });

  return router;
}
