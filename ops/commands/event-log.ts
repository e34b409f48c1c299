import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import {
  formatPosition,
  type EventStore,
  type EventMetadata,
  type NewEvent,
  type Position,
} from '../../domain/event-store/port';

/** One event as a line of the NDJSON export: ids, stream revision, type, data and metadata. */
export interface ExportedEvent {
  eventId: string;
  streamId: string;
  /** Position in its stream, from 0, as a decimal string. */
  revision: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  createdAt: string;
  /** The source store's global position (informational: the target assigns its own). */
  position: string;
}

export type Progress = (done: number) => void;

/** Every event of `store` in global order, in pages. */
export async function* readWholeLog(store: EventStore, batchSize = 2000): AsyncGenerator<ExportedEvent[]> {
  let after: Position | null = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: batchSize });
    if (batch.length === 0) return;
    yield batch.map((e) => ({
      eventId: e.eventId,
      streamId: e.streamId,
      revision: e.revision.toString(),
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      createdAt: e.createdAt,
      position: formatPosition(e.position),
    }));
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1].position;
  }
}

/**
 * Appends events in the given order, each stream at the revision it had in the source (so a
 * gap or a clash is a conflict, not a silent renumbering) and with its own event id (so a
 * repeated import writes nothing twice). Consecutive events of one stream go in one append.
 */
export class OrderedAppender {
  private pending: ExportedEvent[] = [];
  written = 0;

  constructor(private readonly target: EventStore) {}

  async add(event: ExportedEvent): Promise<void> {
    if (this.pending.length > 0 && (this.pending[0].streamId !== event.streamId || this.pending.length >= 500))
      await this.flush();
    this.pending.push(event);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    const first = BigInt(events[0].revision);
    const toAppend: NewEvent[] = events.map((e) => ({
      eventId: e.eventId,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
    }));
    await this.target.append(events[0].streamId, toAppend, {
      expectedRevision: first === 0n ? 'no_stream' : first - 1n,
    });
    this.written += events.length;
  }
}

/** Copies the whole log of `source` into `target`, preserving ids, order, revisions and metadata. */
export async function copyEventLog(
  source: EventStore,
  target: EventStore,
  onProgress: Progress = () => undefined,
): Promise<number> {
  const appender = new OrderedAppender(target);
  let read = 0;
  for await (const batch of readWholeLog(source)) {
    for (const event of batch) await appender.add(event);
    read += batch.length;
    onProgress(read);
  }
  await appender.flush();
  return read;
}

/** Writes the log as NDJSON, one event per line, in global order. */
export async function exportEventLog(
  store: EventStore,
  out: Writable,
  onProgress: Progress = () => undefined,
): Promise<number> {
  let count = 0;
  for await (const batch of readWholeLog(store)) {
    const chunk = batch.map((event) => JSON.stringify(event)).join('\n') + '\n';
    if (!out.write(chunk)) await once(out, 'drain');
    count += batch.length;
    onProgress(count);
  }
  return count;
}

function parseLine(line: string, number: number): ExportedEvent {
  let value: Partial<ExportedEvent>;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`line ${number}: not valid JSON`);
  }
  const ok =
    value &&
    typeof value.eventId === 'string' &&
    typeof value.streamId === 'string' &&
    typeof value.type === 'string' &&
    typeof value.revision === 'string' &&
    /^\d+$/.test(value.revision) &&
    'data' in value;
  if (!ok) throw new Error(`line ${number}: needs eventId, streamId, revision, type and data`);
  return { ...value, metadata: value.metadata ?? {} } as ExportedEvent;
}

/** Appends an NDJSON export to `store` in file order; safe to repeat (event ids make it idempotent). */
export async function importEventLog(
  store: EventStore,
  lines: AsyncIterable<string>,
  onProgress: Progress = () => undefined,
): Promise<number> {
  const appender = new OrderedAppender(store);
  let number = 0;
  let count = 0;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    await appender.add(parseLine(line, number));
    if (++count % 1000 === 0) onProgress(count);
  }
  await appender.flush();
  onProgress(count);
  return count;
}

export const fileLines = (path: string) =>
  createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
export const fileWriter = (path: string) => createWriteStream(path, 'utf8');
