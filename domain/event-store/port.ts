/**
 * The event store port. Two adapters implement it (PostgreSQL, the embedded default, and
 * EventStoreDB) and one contract suite (contract.ts) holds both to the same behaviour.
 */

/** Metadata carried by every event (DESIGN §4). */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  actorId?: string | null;
  requestId?: string | null;
  clientId?: string | null;
  occurredAt?: string;
  [key: string]: unknown;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** A uuid; given by process managers so a retried reaction is written once. */
  eventId?: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

/**
 * A point in the global order. PostgreSQL: (writing transaction id, global position);
 * EventStoreDB: (commit, prepare). Compared as a pair, never as a JS number.
 */
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export interface RecordedEvent<Data = unknown> {
  eventId: string;
  streamId: string;
  /** Position of the event inside its stream, from 0. */
  revision: bigint;
  position: Position;
  type: string;
  data: Data;
  metadata: EventMetadata;
  createdAt: string;
}

/** 'no_stream': the stream must not exist; 'stream_exists': it must; a bigint: its last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface AppendResult {
  /** Revision of the last event written (the next append's expected revision). */
  nextExpectedRevision: bigint;
  /** Global position of the last event written. */
  position: Position;
}

export interface ReadAllOptions {
  /** Exclusive lower bound; from the beginning when omitted. */
  after?: Position | null;
  maxCount?: number;
  /** Only events of these types; a page is still full unless the log ends. */
  types?: readonly string[];
  /**
   * The metadata keys the reader needs: an adapter may leave the others out (a rebuild reads
   * a million events, and their metadata is nearly half of their bytes).
   */
  metadataKeys?: readonly string[];
}

export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  append(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Events of one stream in order; an empty list for a stream that does not exist. */
  readStream(streamId: string, options?: { fromRevision?: bigint }): Promise<RecordedEvent[]>;
  /** Events of all streams in global order, after a position. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catches up from `after`, then delivers live events, each exactly once, in global order. */
  subscribeToAll(options?: { after?: Position | null }): Subscription;
  /**
   * Resolves true as soon as events may have been appended anywhere, false after timeoutMs
   * or on abort: how followers go live without busy polling.
   */
  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Position of the newest readable event, null when the store is empty. */
  headPosition(): Promise<Position | null>;
  /** Whether the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Wrong expected revision on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** "commit/prepare": how positions travel through JSON, headers and logs. */
export function formatPosition(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}
