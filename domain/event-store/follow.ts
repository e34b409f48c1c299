import type { EventStore, Position, RecordedEvent } from './port';

export interface FollowOptions {
  after?: Position | null;
  batchSize?: number;
  signal?: AbortSignal;
  /** Longest sleep between reads when nothing wakes the follower (the store shortens it while it hears no appends). */
  idlePollMs?: number;
}

/**
 * After a wake-up that found nothing readable, re-read after 5 ms, doubling up to RETRY_CAP_MS,
 * for about 10 s: the appended events wait for an older transaction to end, which no one signals.
 */
const RETRY_CAP_MS = 250;
const MAX_RETRIES = 45;

/**
 * Reads the global log in batches from `after`, forever: catch-up first, then live.
 * It listens for appends before each read, so one signalled while the read or the batch's
 * processing runs is not missed and an idle follower needs no polling. A wake-up that finds
 * nothing may mean the new events are not readable yet, so it re-reads with a back-off.
 */
export async function* followAll(store: EventStore, options: FollowOptions = {}): AsyncGenerator<RecordedEvent[]> {
  const batchSize = options.batchSize ?? 1000;
  const idlePollMs = options.idlePollMs ?? 5000;
  let after = options.after ?? null;
  let retryMs = 0;
  let retries = 0;
  while (!options.signal?.aborted) {
    const listening = new AbortController();
    const stop = () => listening.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      const woken = store.waitForAppend(retryMs || idlePollMs, listening.signal);
      const batch = await store.readAll({ after, maxCount: batchSize });
      if (batch.length > 0) {
        after = batch[batch.length - 1].position;
        retryMs = 0;
        yield batch;
        if (batch.length === batchSize) continue; // more to catch up on: read on at once
      }
      if (await woken) [retryMs, retries] = [5, 0];
      else if (retryMs) retryMs = ++retries < MAX_RETRIES ? Math.min(retryMs * 2, RETRY_CAP_MS) : 0;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      listening.abort(); // a wait still pending ends here (leaving early, or reading on)
    }
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
