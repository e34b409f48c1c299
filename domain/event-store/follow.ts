import type { EventStore, Position, RecordedEvent } from './port';

export interface FollowOptions {
  after?: Position | null;
  batchSize?: number;
  signal?: AbortSignal;
  /** Longest sleep between reads when nothing wakes the follower. */
  idlePollMs?: number;
}

/**
 * Reads the global log in batches from `after`, forever: catch-up first, then live.
 * A wake-up that finds nothing may mean the new events are not readable yet (an older
 * transaction is still open), so it re-reads soon with a growing back-off.
 */
export async function* followAll(store: EventStore, options: FollowOptions = {}): AsyncGenerator<RecordedEvent[]> {
  const batchSize = options.batchSize ?? 1000;
  const idlePollMs = options.idlePollMs ?? 250;
  let after = options.after ?? null;
  let retryMs = 0;
  while (!options.signal?.aborted) {
    const batch = await store.readAll({ after, maxCount: batchSize });
    if (batch.length > 0) {
      after = batch[batch.length - 1].position;
      retryMs = 0;
      yield batch;
      if (batch.length === batchSize) continue;
    }
    const woken = await store.waitForAppend(retryMs || idlePollMs, options.signal);
    retryMs = woken ? 5 : retryMs && Math.min(retryMs * 2, idlePollMs);
  }
}

/** followAll, one event at a time, with a close() that ends it: the adapters' subscribeToAll. */
export function subscriptionFrom(store: EventStore, after: Position | null | undefined) {
  const abort = new AbortController();
  const batches = followAll(store, { after, signal: abort.signal });
  return {
    async *[Symbol.asyncIterator]() {
      for await (const batch of batches) {
        for (const event of batch) {
          if (abort.signal.aborted) return;
          yield event;
        }
      }
    },
    async close() {
      abort.abort();
    },
  };
}
