/**
 * EventStoreDB adapter. Everything that touches @eventstore/db-client lives in this one file,
 * so moving to @kurrent/kurrentdb-client is a one-file change.
 */
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  comparePositions,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
} from './port';
import { AppendSignal } from './append-signal';

type AnyResolved = ResolvedEvent | AllStreamResolvedEvent;

function toRecorded(resolved: AnyResolved): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.position || event.type.startsWith('$')) return null;
  return {
    eventId: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position: { commit: event.position.commit, prepare: event.position.prepare },
    type: event.type,
    data: event.data,
    metadata: (event.metadata ?? {}) as EventMetadata,
    createdAt: event.created.toISOString(),
  };
}

export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly client: EventStoreDBClient;
  private readonly appended = new AppendSignal(() => this.live !== null);
  private live: { unsubscribe(): Promise<void> } | null = null;
  private closed = false;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const payload = events.map((event) =>
      jsonEvent({
        id: event.eventId ?? randomUUID(),
        type: event.type,
        data: (event.data ?? null) as never,
        metadata: (event.metadata ?? {}) as never,
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, payload, {
        expectedRevision: options.expectedRevision,
      });
      this.appended.wake();
      const position = result.position ?? (await this.positionOfRevision(streamId, result.nextExpectedRevision));
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(
          streamId,
          options.expectedRevision,
          typeof actual === 'bigint' ? actual : 'no_stream',
        );
      }
      throw error;
    }
  }

  /** An idempotent re-append answers without a position; read it back. */
  private async positionOfRevision(streamId: string, revision: bigint): Promise<Position> {
    const [event] = await this.readStream(streamId, { fromRevision: revision });
    return event.position;
  }

  async readStream(streamId: string, options: { fromRevision?: bigint } = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: options.fromRevision ?? START,
        direction: FORWARDS,
      })) {
        const event = toRecorded(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? 1000;
    const after = options.after ?? null;
    const types = options.types ? new Set(options.types) : null;
    const events: RecordedEvent[] = [];
    let from: Position | typeof START = after ?? START;
    // System events (and events of other types) are skipped, so a page may come back short: keep reading until full or at the end.
    for (;;) {
      let read = 0;
      let last: Position | null = null;
      for await (const resolved of this.client.readAll({
        fromPosition: from,
        maxCount: maxCount + 1,
        direction: FORWARDS,
      })) {
        read++;
        const position = resolved.event?.position;
        if (position) last = { commit: position.commit, prepare: position.prepare };
        const event = toRecorded(resolved);
        if (
          event &&
          (!types || types.has(event.type)) &&
          (!after || comparePositions(event.position, after) > 0) &&
          events.length < maxCount
        )
          events.push(event);
      }
      if (events.length >= maxCount || read <= 1 || !last) return events;
      from = last;
    }
  }

  subscribeToAll(options: { after?: Position | null } = {}): Subscription {
    const subscription = this.client.subscribeToAll({
      fromPosition: options.after ?? START,
      filter: excludeSystemEvents(),
    });
    const after = options.after ?? null;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const resolved of subscription) {
          const event = toRecorded(resolved);
          if (event && (!after || comparePositions(event.position, after) > 0)) yield event;
        }
      },
      async close() {
        await subscription.unsubscribe();
      },
    };
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    this.ensureLive();
    return this.appended.wait(timeoutMs, signal);
  }

  /** A live subscription from the end wakes followers when other processes append; resubscribes with back-off. */
  private ensureLive(attempt = 0): void {
    if (this.live || this.closed) return;
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.live = subscription;
    (async () => {
      try {
        for await (const _ of subscription) this.appended.wake();
      } catch {
        // dropped: resubscribe below
      }
      this.live = null;
      if (!this.closed) setTimeout(() => this.ensureLive(attempt + 1), Math.min(100 * 2 ** attempt, 5000));
    })();
  }

  async headPosition(): Promise<Position | null> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 50 })) {
      const event = toRecorded(resolved);
      if (event) return event.position;
    }
    return null;
  }

  async ping(): Promise<void> {
    for await (const _ of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.appended.wake();
    await this.live?.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }
}
