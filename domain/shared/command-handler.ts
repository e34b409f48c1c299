import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
} from '../event-store/port';
import { newId } from './ids';

/** An event as deciders see it: a type and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** The write model of one aggregate: pure functions, no I/O, time comes in the command. */
export interface Decider<Command, State, Event extends DomainEvent> {
  initialState: State;
  evolve(state: State, event: Event): State;
  /** The events a command causes, or a thrown DomainError when it is refused. */
  decide(command: Command, state: State): Event[];
}

/** Who and what caused a command: becomes every written event's metadata. */
export interface CommandContext {
  actorId: string | null;
  requestId?: string | null;
  clientId?: string | null;
  correlationId?: string;
  causationId?: string;
  now: Date;
}

export interface CommandResult<Event> {
  events: Event[];
  /** Global position of the last event written; null when the command changed nothing. */
  position: Position | null;
  revision: bigint | null;
}

export function metadataFor(context: CommandContext): EventMetadata {
  const correlationId = context.correlationId ?? context.requestId ?? newId();
  return {
    correlationId,
    causationId: context.causationId ?? correlationId,
    actorId: context.actorId,
    requestId: context.requestId ?? null,
    clientId: context.clientId ?? null,
    occurredAt: context.now.toISOString(),
  };
}

export async function loadState<State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
): Promise<{ state: State; revision: bigint | null }> {
  const recorded = await store.readStream(streamId);
  let state = decider.initialState;
  for (const event of recorded) state = decider.evolve(state, { type: event.type, data: event.data } as Event);
  return { state, revision: recorded.length ? recorded[recorded.length - 1].revision : null };
}

export interface HandleOptions {
  /** Conflicts re-read the stream and decide again, this many times at most. */
  maxAttempts?: number;
  /** Fixed ids for the written events (process managers), in order. */
  eventIds?: string[];
}

/**
 * Read the stream, fold it, decide, append with the revision that was read. A concurrent
 * writer makes the append fail; then everything is done again on the fresh state.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  context: CommandContext,
  options: HandleOptions = {},
): Promise<CommandResult<Event> & { state: State }> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadState(store, streamId, decider);
    const events = decider.decide(command, state);
    const after = events.reduce(decider.evolve, state);
    if (events.length === 0) return { events, position: null, revision, state: after };
    const metadata = metadataFor(context);
    const expectedRevision: ExpectedRevision = revision === null ? 'no_stream' : revision;
    const toAppend: NewEvent[] = events.map((event, index) => ({
      eventId: options.eventIds?.[index],
      type: event.type,
      data: event.data,
      metadata,
    }));
    try {
      const written = await store.append(streamId, toAppend, { expectedRevision });
      return { events, position: written.position, revision: written.nextExpectedRevision, state: after };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
    }
  }
}
