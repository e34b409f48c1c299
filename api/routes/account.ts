import { Router } from 'express';
import {
  confirmOwner,
  deleteAccount,
  exportKey,
  exportsPrefix,
  requestAccountExport,
  type EmailSender,
  type TwoFactorKeys,
} from '../../domain/accounts/commands';
import {
  deleteAccountSchema,
  type AccountDeletedResponse,
  type AccountExportPreparing,
} from '../../domain/contracts/account';
import { formatCents } from '../../domain/contracts/money';
import { cancelCreatorSubscription } from '../../domain/creators/commands';
import { deleteMedia, type MediaStorage } from '../../domain/media/commands';
import { cancelMembership } from '../../domain/membership/commands';
import { DomainError, refuse } from '../../domain/shared/errors';
import type { CommandContext } from '../../domain/shared/command-handler';
import { accountExport, accountExportSize } from '../../projections/account-export';
import { creatorBalances } from '../../projections/creator-balances';
import {
  creatorSubscribers,
  latestSubscriptionTo,
  memberSubscriptions,
  parseSubscriberCursor,
  type SubscriberCursor,
} from '../../projections/creator-subscriptions';
import { ownerVault } from '../../projections/media';
import { readAs } from '../../projections/page-reads';
import { payoutsOfCreator } from '../../projections/payouts';
import { isCreator } from '../../projections/creators';
import { findUserRow } from '../../projections/users';
import { hitRateLimit } from '../http/rate-limit';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Accounts larger than this many rows get their export from a job and a notification. */
export const EXPORT_INLINE_ROWS = 5_000;
/** Deletion attempts (each checks a password) per account. */
const DELETE_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
export const ACCOUNT_DELETED = 'Your account has been deleted';
export const EXPORT_PREPARING =
  "We're preparing your data. You'll get a notification with the download link when it's ready.";

/**
 * The member's own account (issue 23): a copy of everything about them, and deleting it. A
 * deletion ends what would still run or charge (membership, subscriptions both ways), deletes
 * their media and exports, then the account (domain/accounts/delete-account.ts); a creator's
 * money is paid out first, so it is refused, saying why, while any is left or on its way.
 */
export function accountRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const storage = () => api.deps.ports.mediaStorage as MediaStorage;
  const inlineRows = () => (api.deps.ports.accountExportInlineRows as number | undefined) ?? EXPORT_INLINE_ROWS;

  router.get('/account/export', api.requireUser, async (req, res) => {
    const userId = req.userId!;
    const now = api.deps.clock();
    if ((await accountExportSize(db, userId)) > inlineRows()) {
      const { exportId } = await requestAccountExport(store, userId, api.context(req));
      res
        .status(202)
        .json({ status: 'preparing', exportId, message: EXPORT_PREPARING } satisfies AccountExportPreparing);
      return;
    }
    res.attachment(`lively-data-${now.toISOString().slice(0, 10)}.json`);
    res.type('application/json').send(JSON.stringify(await accountExport(db, userId, now), null, 2));
  });

  router.get('/account/exports/:id', api.requireUser, async (req, res) => {
    const exportId = String(req.params.id);
    const file = await storage().read(exportKey(req.userId!, exportId));
    if (!file) throw refuse.notFound('Export not found');
    res.attachment(`lively-data-${exportId.slice(0, 8)}.json`).type('application/json');
    file.body.pipe(res);
  });

  router.post('/account/delete', api.requireUser, async (req, res) => {
    const userId = req.userId!;
    const body = parseWith(deleteAccountSchema, req.body);
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, `account:delete:${userId}`, DELETE_LIMIT);
    if (!allowed)
      throw new DomainError('rate_limited', 'Too many attempts. Please try again later.', { retryAfterSeconds });
    const context = api.context(req);
    await refuseWhileMoneyIsOwed(userId, context.now);
    const deps = { store, keys: api.deps.ports.twoFactorKeys as TwoFactorKeys };
    await confirmOwner(deps, { userId, password: body.password, code: body.code }, context);
    const email = (await findUserRow(db, userId))?.email;
    await endWhatRuns(userId, context);
    await deleteEverythingStored(userId, context);
    if (email) await (api.deps.ports.email as EmailSender).forgetRecipient?.(email);
    const result = await deleteAccount(store, { userId }, context);
    await api.sessions.closeAllFor(userId);
    await api.sessions.close(res, null, api.secure(req));
    await api.readYourWrites(result.position);
    res.json({ message: ACCOUNT_DELETED } satisfies AccountDeletedResponse);
  });

  /** A creator's earnings are paid out before the account goes: refused (409) while any is available, pending or on its way. */
  async function refuseWhileMoneyIsOwed(userId: string, now: Date): Promise<void> {
    if (!(await isCreator(db, userId))) return;
    const open = (await payoutsOfCreator(readAs(db, userId), userId)).find(
      (p) => p.status === 'pending' || p.status === 'processing',
    );
    if (open)
      throw refuse.conflict(
        `Your payout of $${open.amount} is on its way. You can delete your account once it has been paid.`,
        { code: 'PAYOUT_OPEN' },
      );
    const balance = await creatorBalances(readAs(db, userId), userId, now);
    if (balance.availableCents > 0)
      throw refuse.conflict(
        `You have $${formatCents(balance.availableCents)} available. Request a payout of it first, then delete your account.`,
        { code: 'BALANCE_AVAILABLE' },
      );
    if (balance.pendingCents > 0)
      throw refuse.conflict(
        `$${formatCents(balance.pendingCents)} of your earnings is still pending${balance.nextAvailableAt ? ` (available from ${balance.nextAvailableAt.slice(0, 10)})` : ''}. Once it is available and paid out, you can delete your account.`,
        { code: 'EARNINGS_PENDING' },
      );
  }

  /** Nothing renews or charges after the account is gone: the membership, their subscriptions, and their subscribers'. */
  async function endWhatRuns(userId: string, context: CommandContext): Promise<void> {
    const ended = (error: unknown) => {
      if (!(error instanceof DomainError) || error.kind !== 'conflict') throw error;
    };
    await cancelMembership(store, userId, context).catch(ended);
    for (const subscription of await memberSubscriptions(readAs(db, userId), context.now)) {
      if (subscription.status !== 'active' && subscription.status !== 'past_due') continue;
      const ref = { subscriberId: userId, creatorId: subscription.creatorId, subscriptionId: subscription.id };
      await cancelCreatorSubscription(store, ref, context).catch(ended);
    }
    for (let after: SubscriberCursor | null = null; ;) {
      const page = await creatorSubscribers(db, context.now, userId, { status: 'active', after, limit: 200 });
      for (const { userId: subscriberId } of page.subscribers) {
        const latest = await latestSubscriptionTo(db, context.now, subscriberId, userId);
        if (!latest || (latest.status !== 'active' && latest.status !== 'past_due')) continue;
        const ref = { subscriberId, creatorId: userId, subscriptionId: latest.id };
        await cancelCreatorSubscription(store, ref, context).catch(ended);
      }
      if (!page.nextCursor) break;
      after = parseSubscriberCursor(page.nextCursor);
    }
  }

  /** Their uploads (and every processed copy) and their data exports leave storage. */
  async function deleteEverythingStored(userId: string, context: CommandContext): Promise<void> {
    for (let cursor: string | undefined; ;) {
      const page = await ownerVault(db, userId, { cursor, limit: 100 });
      for (const item of page.items)
        await deleteMedia({ store, storage: storage() }, { mediaId: item.id, actorId: userId, inUse: false }, context);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    await storage().deletePrefix(exportsPrefix(userId));
  }

  return router;
}
