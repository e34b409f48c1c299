import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, metadataFor, type CommandContext } from '../shared/command-handler';
import { memberStream, presenceStream, sessionStream, type PreferencesData, type ProfileData } from './events';
import { memberDecider } from './member-decider';
import { presenceDecider } from './presence-decider';
import { sessionDecider, type SessionCommand, type SessionState } from './session-decider';

/**
 * The chat context's way in: what the API does for a member (profile, preferences) and what
 * the realtime service records (sessions, presence). Blocks and reports moved to the safety
 * context (`domain/safety/`); the chat's older block and report events stay in the log and
 * count there. api/ and realtime/ import this file and events.ts only.
 */

export type StartChatSession = Extract<SessionCommand, { type: 'StartSession' }>;
export type EndChatSession = Extract<SessionCommand, { type: 'EndSession' }>;

export function saveChatProfile(store: EventStore, userId: string, profile: ProfileData, context: CommandContext) {
  return handleCommand(
    store,
    memberStream(userId),
    memberDecider,
    { type: 'SaveProfile', userId, profile, now: context.now },
    context,
  );
}

export function saveChatPreferences(
  store: EventStore,
  userId: string,
  preferences: PreferencesData,
  context: CommandContext,
) {
  return handleCommand(
    store,
    memberStream(userId),
    memberDecider,
    { type: 'SavePreferences', userId, preferences, now: context.now },
    context,
  );
}

/** Who took part in a session and when it started, from its stream; null until it is written. */
export async function chatSessionStarted(store: EventStore, roomId: string): Promise<SessionState['started']> {
  return (await loadState(store, sessionStream(roomId), sessionDecider)).state.started;
}

/**
 * Writes a new session's start in one append (the stream must not exist yet); an end that
 * arrived before the start was written rides along with it.
 */
export async function recordChatSessionStart(
  store: EventStore,
  start: StartChatSession,
  end: EndChatSession | null,
  context: CommandContext,
): Promise<void> {
  let state = sessionDecider.initialState;
  const events = sessionDecider.decide(start, state);
  state = events.reduce(sessionDecider.evolve, state);
  if (end) events.push(...sessionDecider.decide(end, state));
  const metadata = metadataFor(context);
  await store.append(
    sessionStream(start.roomId),
    events.map((e) => ({ type: e.type, data: e.data, metadata })),
    { expectedRevision: 'no_stream' },
  );
}

export function endChatSession(store: EventStore, end: EndChatSession, context: CommandContext) {
  return handleCommand(store, sessionStream(end.roomId), sessionDecider, end, context);
}

/** A member went online or offline in the chat (recorded only when it changes something). */
export function recordChatPresence(store: EventStore, userId: string, online: boolean, at: Date) {
  const command = { type: online ? ('GoOnline' as const) : ('GoOffline' as const), userId, now: at };
  return handleCommand(store, presenceStream(userId), presenceDecider, command, { actorId: userId, now: at });
}
