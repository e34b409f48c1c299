import type { EventStore, Position, RecordedEvent } from './port';

export interface FollowOptions {
  after?: Position | null;
  batchSize?: number;
  signal?: AbortSignal;
  /** Longest sleep between reads when nothing wakes the follower (the store shortens it while it hears no appends). */
  idlePollMs?: number;
}

/**
 * For this long after its last batch or wake-up, a follower also re-reads on its own (after
 * 5 ms, doubling up to RETRY_CAP_MS): appended events can stay unreadable behind an older open
 * transaction, and no one signals when that one ends. After that it only waits for signals.
 */
const EAGER_MS = 10_000;
const RETRY_CAP_MS = 250;

/**
 * Reads the global log in batches from `after`, forever: catch-up first, then live.
 * It listens for appends before each read, so one signalled while the read or the batch's
 * processing runs is not missed, and a follower idle for a while needs no polling.
 */
export async function* followAll(store: EventStore, options: FollowOptions = {}): AsyncGenerator<RecordedEvent[]> {
  const batchSize = options.batchSize ?? 1000;
  const idlePollMs = options.idlePollMs ?? 5000;
  let after = options.after ?? null;
  let retryMs = 5;
  let eagerUntil = Date.now() + EAGER_MS; // at start too: events may be held back already
  const active = () => {
    retryMs = 5;
    eagerUntil = Date.now() + EAGER_MS;
  };
  while (!options.signal?.aborted) {
    const listening = new AbortController();
    const stop = () => listening.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      const woken = store.waitForAppend(Date.now() < eagerUntil ? retryMs : idlePollMs, listening.signal);
      const batch = await store.readAll({ after, maxCount: batchSize });
      if (batch.length > 0) {
        after = batch[batch.length - 1].position;
        active();
        yield batch;
        if (batch.length === batchSize) continue; // more to catch up on: read on at once
      }
      if (await woken) active();
      else retryMs = Math.min(retryMs * 2, RETRY_CAP_MS);
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
