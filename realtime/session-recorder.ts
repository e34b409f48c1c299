import type { Logger } from 'pino';
import {
  endChatSession,
  recordChatSessionStart,
  type EndChatSession as End,
  type StartChatSession as Start,
} from '../domain/chat/commands';
import type { ChatEndReason } from '../domain/chat/events';
import type { EventStore } from '../domain/event-store/port';
import type { CommandContext } from '../domain/shared/command-handler';
import type { Session } from './matcher';

interface Pending {
  start: Start;
  end: End | null;
  actorId: string;
}

/**
 * Writes chat sessions as events (ChatSessionStarted, ChatSessionEnded) off the matcher's hot
 * path: the matcher never awaits. Starts are batched for a few milliseconds; a session that
 * ended before its start was written is appended as one write of both events. Writes run with
 * bounded concurrency; per session, the end always follows the start. Failures are logged
 * with the room id (the chat itself goes on).
 */
export class SessionRecorder {
  private pending = new Map<string, Pending>();
  /** Per room: the write in flight, so an end waits for its start. */
  private readonly writing = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private queued = 0;
  private failures = 0;

  constructor(
    private readonly store: EventStore,
    private readonly log: Logger,
    private readonly options: { batchMs?: number; concurrency?: number } = {},
  ) {}

  started(session: Session, at: Date): void {
    const start: Start = {
      type: 'StartSession',
      roomId: session.id,
      user1Id: session.user1.userId,
      user2Id: session.user2.userId,
      mode: session.mode,
      compatibilityScore: session.score,
      now: at,
    };
    this.pending.set(session.id, { start, end: null, actorId: session.user2.userId });
    this.queued++;
    this.timer ??= setTimeout(() => this.flush(), this.options.batchMs ?? 5);
  }

  ended(session: Session, endedBy: string | null, reason: ChatEndReason, at: Date): void {
    this.endedById(session.id, endedBy, reason, at);
  }

  /** The end of a session known by its id only (one a chat cluster's new owner adopted). */
  endedById(roomId: string, endedBy: string | null, reason: ChatEndReason, at: Date): void {
    const end: End = { type: 'EndSession', roomId, endedBy, reason, now: at };
    const pending = this.pending.get(roomId);
    if (pending) {
      pending.end = end;
      return;
    }
    this.queued++;
    const previous = this.writing.get(roomId) ?? Promise.resolve();
    this.track(
      roomId,
      previous.then(() => this.limited(() => this.writeEnd(end, endedBy))),
    );
  }

  /** Writes not yet done (for the benchmark and for shutdown). */
  backlog(): number {
    return this.queued;
  }

  failed(): number {
    return this.failures;
  }

  /** Resolves when everything recorded so far is written (or failed and was logged). */
  async drain(timeoutMs = 5000): Promise<void> {
    this.flush();
    const deadline = Date.now() + timeoutMs;
    while (this.writing.size > 0 && Date.now() < deadline)
      await Promise.race([...this.writing.values(), new Promise((r) => setTimeout(r, 50))]);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    for (const [roomId, item] of batch)
      this.track(
        roomId,
        this.limited(() => this.writeStart(item)),
      );
  }

  private track(roomId: string, write: Promise<void>): void {
    const done = write.finally(() => {
      this.queued--;
      if (this.writing.get(roomId) === done) this.writing.delete(roomId);
    });
    this.writing.set(roomId, done);
  }

  private async limited(work: () => Promise<void>): Promise<void> {
    const limit = this.options.concurrency ?? 8;
    while (this.active >= limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.active++;
    try {
      await work();
    } catch (error) {
      this.failures++;
      this.log.error({ err: error, component: 'chat-recorder' }, 'could not record a chat session event');
    } finally {
      this.active--;
      this.waiters.shift()?.();
    }
  }

  private context(actorId: string | null, roomId: string, now: Date): CommandContext {
    return { actorId, correlationId: roomId, now };
  }

  private async writeStart(item: Pending): Promise<void> {
    // An end that arrived before the start was written rides along with it.
    await recordChatSessionStart(
      this.store,
      item.start,
      item.end,
      this.context(item.actorId, item.start.roomId, item.start.now),
    );
  }

  private async writeEnd(end: End, actorId: string | null): Promise<void> {
    await endChatSession(this.store, end, this.context(actorId, end.roomId, end.now));
  }
}
