import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { recordChatPresence } from '../domain/chat/commands';
import type { EventStore } from '../domain/event-store/port';
import { membersShownOnline } from '../projections/user-profiles';

/**
 * Records chat presence as events (ChatMemberWentOnline / ChatMemberWentOffline on
 * `chatPresence-<userId>`) off the socket path: the service never awaits it. Per member only the latest wanted
 * state is kept, so a quick reconnect coalesces; one write per member at a time, a few members
 * at once. Failures are logged (the chat goes on).
 */
export class PresenceRecorder {
  private readonly wanted = new Map<string, { online: boolean; at: Date }>();
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly writing = new Set<string>();
  private idle: (() => void)[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly log: Logger,
    private readonly concurrency = 4,
  ) {}

  online(userId: string, at: Date): void {
    this.want(userId, true, at);
  }

  offline(userId: string, at: Date): void {
    this.want(userId, false, at);
  }

  /** After a restart nobody is connected: members the read model still shows online go offline. */
  async settleAfterRestart(db: Knex, at: Date): Promise<void> {
    for (const userId of await membersShownOnline(db)) this.offline(userId, at);
  }

  /** Resolves when every wanted state is written (or failed and was logged). */
  async drain(timeoutMs = 5000): Promise<void> {
    if (this.writing.size === 0 && this.queue.length === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.push(resolve)),
      new Promise((r) => setTimeout(r, timeoutMs)),
    ]);
  }

  private want(userId: string, online: boolean, at: Date): void {
    this.wanted.set(userId, { online, at });
    if (!this.writing.has(userId) && !this.queued.has(userId)) {
      this.queued.add(userId);
      this.queue.push(userId);
    }
    this.pump();
  }

  private pump(): void {
    while (this.writing.size < this.concurrency && this.queue.length > 0) {
      const userId = this.queue.shift()!;
      this.queued.delete(userId);
      const state = this.wanted.get(userId)!;
      this.wanted.delete(userId);
      this.writing.add(userId);
      void this.write(userId, state.online, state.at).finally(() => {
        this.writing.delete(userId);
        // A change that came in meanwhile is written next.
        if (this.wanted.has(userId) && !this.queued.has(userId)) {
          this.queued.add(userId);
          this.queue.push(userId);
        }
        this.pump();
        if (this.writing.size === 0 && this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  private async write(userId: string, online: boolean, at: Date): Promise<void> {
    try {
      await recordChatPresence(this.store, userId, online, at);
    } catch (error) {
      this.log.error({ err: error, component: 'chat-presence', userId }, 'could not record chat presence');
    }
  }
}
