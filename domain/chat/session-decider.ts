import { refuse } from '../shared/errors';
import type { Decider } from '../shared/command-handler';
import type { ChatEndReason, SessionEvent } from './events';

/** One chat session (stream `chatSession-<roomId>`), written by the realtime service. */
export interface SessionState {
  started: { user1Id: string; user2Id: string; startedAt: string } | null;
  ended: boolean;
  reporters: Set<string>;
}

export type SessionCommand =
  | {
      type: 'StartSession';
      roomId: string;
      user1Id: string;
      user2Id: string;
      mode: 'standard' | 'random';
      compatibilityScore: number;
      now: Date;
    }
  | { type: 'EndSession'; roomId: string; endedBy: string | null; reason: ChatEndReason; now: Date }
  | { type: 'ReportSession'; roomId: string; reporterId: string; reason: string; now: Date };

export const sessionDecider: Decider<SessionCommand, SessionState, SessionEvent> = {
  initialState: { started: null, ended: false, reporters: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'ChatSessionStarted':
        return {
          ...state,
          started: { user1Id: event.data.user1Id, user2Id: event.data.user2Id, startedAt: event.data.startedAt },
        };
      case 'ChatSessionEnded':
        return { ...state, ended: true };
      case 'ChatSessionReported':
        return { ...state, reporters: new Set(state.reporters).add(event.data.reporterId) };
    }
  },
  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'StartSession':
        if (state.started) return [];
        if (command.user1Id === command.user2Id) throw refuse.validation('A chat needs two different users');
        return [
          {
            type: 'ChatSessionStarted',
            data: {
              roomId: command.roomId,
              user1Id: command.user1Id,
              user2Id: command.user2Id,
              mode: command.mode,
              compatibilityScore: command.compatibilityScore,
              startedAt: at,
            },
          },
        ];
      case 'EndSession': {
        if (!state.started) throw refuse.notFound('Chat session not found');
        if (state.ended) return [];
        const durationSeconds = Math.max(
          0,
          Math.round((command.now.getTime() - Date.parse(state.started.startedAt)) / 1000),
        );
        return [
          {
            type: 'ChatSessionEnded',
            data: {
              roomId: command.roomId,
              user1Id: state.started.user1Id,
              user2Id: state.started.user2Id,
              endedBy: command.endedBy,
              reason: command.reason,
              endedAt: at,
              durationSeconds,
            },
          },
        ];
      }
      case 'ReportSession': {
        const started = state.started;
        if (!started) throw refuse.notFound('Chat session not found');
        if (command.reporterId !== started.user1Id && command.reporterId !== started.user2Id)
          throw refuse.notFound('Chat session not found');
        if (state.reporters.has(command.reporterId)) return [];
        const reportedUserId = command.reporterId === started.user1Id ? started.user2Id : started.user1Id;
        return [
          {
            type: 'ChatSessionReported',
            data: {
              roomId: command.roomId,
              reporterId: command.reporterId,
              reportedUserId,
              reason: command.reason,
              reportedAt: at,
            },
          },
        ];
      }
    }
  },
};
