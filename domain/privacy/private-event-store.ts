import type { EventStore, NewEvent, ReadAllOptions, RecordedEvent, Subscription } from '../event-store/port';
import type { PersonalDataCipher } from './cipher';

/**
 * The event store every part of the product uses: it seals personal fields on the way in and
 * opens them on the way out (cipher.ts), so deciders, projectors and process managers read
 * events as they were decided, and the log itself (and every export or backup of it) holds only
 * ciphertext for them. `raw` is the store underneath, for engineers' export and import, which
 * must copy the ciphertext as it is.
 */
export class PrivateEventStore implements EventStore {
  readonly kind: EventStore['kind'];

  constructor(
    readonly raw: EventStore,
    readonly cipher: PersonalDataCipher,
  ) {
    this.kind = raw.kind;
  }

  async append(streamId: string, events: NewEvent[], options: Parameters<EventStore['append']>[2]) {
    return this.raw.append(streamId, await this.cipher.seal(events), options);
  }

  async readStream(streamId: string, options?: { fromRevision?: bigint }): Promise<RecordedEvent[]> {
    return this.cipher.open(await this.raw.readStream(streamId, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.cipher.open(await this.raw.readAll(options));
  }

  subscribeToAll(options?: Parameters<EventStore['subscribeToAll']>[0]): Subscription {
    const inner = this.raw.subscribeToAll(options);
    const cipher = this.cipher;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) yield (await cipher.open([event]))[0];
      },
      close: () => inner.close(),
    };
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.raw.waitForAppend(timeoutMs, signal);
  }

  headPosition() {
    return this.raw.headPosition();
  }

  ping(): Promise<void> {
    return this.raw.ping();
  }

  async close(): Promise<void> {
    await Promise.all([this.raw.close(), this.cipher.keys.close()]);
  }
}

/** The log as stored, ciphertext and all: what a backup copies and a restore appends. */
export function storedLog(store: EventStore): EventStore {
  return store instanceof PrivateEventStore ? store.raw : store;
}

/**
 * Deletes the person's key (crypto-shredding): from now on every event that names them opens
 * with its forgotten values, in this log and in every backup of it. Without sealing (no key
 * store configured) the log keeps what it holds and only the read models forget.
 */
export async function forgetPerson(store: EventStore, subjectId: string): Promise<void> {
  if (store instanceof PrivateEventStore) await store.cipher.keys.forget(subjectId);
}
