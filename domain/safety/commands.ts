import type { AccountStanding, ModerationAction, ReportReason, ReportTargetType } from '../contracts/safety';
import type { ChatUserBlocked } from '../chat/events';
import { memberStream } from '../chat/events';
import type { EventStore, Position } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { ACCOUNT_DEACTIVATED } from '../accounts/decider';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { suspendAutomatically } from './auto-suspension-process';
import { blockListDecider, type BlockCommand, type BlockListState } from './block-decider';
import {
  blockListStream,
  reportsStream,
  standingStream,
  type ReportThresholdReached,
  type StandingEvent,
} from './events';
import { reportsDecider, type AutoSuspendPolicy } from './report-decider';
import { standingAt, standingDecider, type StandingCommand } from './standing-decider';

/**
 * The safety context's way in for api/ and realtime/: blocks, reports and what staff do to an
 * account. Blocks and reports live here, not in chat, because they reach past chat (posts,
 * messages, profiles) and enforcement is about the whole account.
 */

export type { AutoSuspendPolicy } from './report-decider';

/** A suspended or banned account signing in (SPEC §8: the client shows 'Your account has been deactivated…'). */
export const accountDeactivated = () => refuse.forbidden(ACCOUNT_DEACTIVATED, { code: 'ACCOUNT_DEACTIVATED' });

/** Three distinct reporters within 24 hours (REPORTS_AUTO_SUSPEND_COUNT, REPORTS_AUTO_SUSPEND_WINDOW). */
export const DEFAULT_AUTO_SUSPEND_POLICY: AutoSuspendPolicy = { count: 3, windowMs: 24 * 3_600_000 };

/**
 * A member's blocks: their block list, starting from the blocks they made in the chat before
 * this context existed (`ChatUserBlocked` on their chat stream, which nothing writes any more).
 */
async function blockListOf(store: EventStore, userId: string) {
  const legacy = (await store.readStream(memberStream(userId))).filter((e) => e.type === 'ChatUserBlocked');
  const initialState = legacy.reduce<BlockListState>(
    (state, e) => blockListDecider.evolve(state, { type: 'ChatUserBlocked', data: e.data as ChatUserBlocked['data'] }),
    blockListDecider.initialState,
  );
  return { ...blockListDecider, initialState };
}

async function blockListCommand(store: EventStore, command: BlockCommand, context: CommandContext) {
  const decider = await blockListOf(store, command.userId);
  return handleCommand(store, blockListStream(command.userId), decider, command, context);
}

/** Whether `blockerId` blocks `blockedId` now, from the block list itself (current at once, unlike a read model). */
export async function isBlocking(store: EventStore, blockerId: string, blockedId: string): Promise<boolean> {
  const { state } = await loadState(store, blockListStream(blockerId), await blockListOf(store, blockerId));
  return state.blocked.has(blockedId);
}

/** A member blocks another (once; never themselves). */
export function blockUser(
  store: EventStore,
  input: { userId: string; blockedId: string; reason: string | null },
  context: CommandContext,
) {
  return blockListCommand(store, { type: 'BlockUser', ...input, now: context.now }, context);
}

/** A member lifts a block they made (404 when there is none). */
export function unblockUser(store: EventStore, input: { userId: string; blockedId: string }, context: CommandContext) {
  return blockListCommand(store, { type: 'UnblockUser', ...input, now: context.now }, context);
}

export interface ReportInput {
  reporterId: string;
  targetType: ReportTargetType;
  targetId: string;
  /** Who the report is about, as the caller found it (the post's creator, the message's sender, the partner). */
  targetUserId: string;
  reason: ReportReason;
  details: string | null;
}

/**
 * Files a report about an account. When it brings the distinct reporters within the policy's
 * window to its count, the account is suspended pending review at once (the auto-suspension
 * process does the same from the log, so a crash in between still suspends it).
 */
export async function fileReport(
  store: EventStore,
  input: ReportInput,
  policy: AutoSuspendPolicy,
  context: CommandContext,
): Promise<{ reportId: string; position: Position | null; suspended: boolean }> {
  const reportId = newId();
  const result = await handleCommand(
    store,
    reportsStream(input.targetUserId),
    reportsDecider,
    { type: 'FileReport', reportId, ...input, policy, now: context.now },
    context,
  );
  const threshold = result.events.find((e): e is ReportThresholdReached => e.type === 'ReportThresholdReached');
  if (!threshold) return { reportId, position: result.position, suspended: false };
  const suspension = await suspendAutomatically(store, threshold.data, context);
  return { reportId, position: suspension.position ?? result.position, suspended: suspension.events.length > 0 };
}

/** The account's standing at `now`, from its own stream (current at once, before any read model). */
export async function accountStanding(store: EventStore, userId: string, now: Date): Promise<AccountStanding> {
  return standingAt((await loadState(store, standingStream(userId), standingDecider)).state, now);
}

/** A staff action on an account's standing (warn, suspend for N days, ban, reinstate). */
export function changeStanding(store: EventStore, command: StandingCommand, context: CommandContext) {
  return handleCommand(store, standingStream(command.userId), standingDecider, command, context);
}

export interface Resolution {
  reportId: string;
  targetUserId: string;
  target: { targetType: ReportTargetType; targetId: string; legacy: boolean };
  action: ModerationAction;
  days: number | null;
  reason: string;
  staffId: string;
}

const STANDING_OF_ACTION = { warn: 'WarnUser', suspend: 'SuspendUser', ban: 'BanUser' } as const;

/**
 * Staff resolve a report: dismissed, content removed, or the account warned, suspended or
 * banned. The account's action is checked before the report is closed (a refused action leaves
 * the report open), then both are written.
 */
export async function resolveReport(
  store: EventStore,
  resolution: Resolution,
  context: CommandContext,
): Promise<{ position: Position | null; standing: StandingEvent[] }> {
  const now = context.now;
  const { reportId, targetUserId: userId, staffId, reason } = resolution;
  const type = STANDING_OF_ACTION[resolution.action as keyof typeof STANDING_OF_ACTION];
  const standingCommand = type
    ? ({ type, userId, staffId, reason, reportId, days: resolution.days ?? 0, now } as StandingCommand)
    : null;
  if (standingCommand)
    standingDecider.decide(standingCommand, (await loadState(store, standingStream(userId), standingDecider)).state);
  const resolved = await handleCommand(
    store,
    reportsStream(userId),
    reportsDecider,
    { type: 'ResolveReport', ...resolution, now },
    context,
  );
  if (!standingCommand) return { position: resolved.position, standing: [] };
  const changed = await changeStanding(store, standingCommand, context);
  return { position: changed.position ?? resolved.position, standing: changed.events };
}
