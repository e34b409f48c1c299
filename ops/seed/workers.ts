import type { EventStore } from '../../domain/event-store/port';
import { duration, thousands } from '../commands/format';

/** An event store that counts what it appends (the seed's progress, on any store). */
export function countingStore(store: EventStore): { store: EventStore; appended(): number } {
  let appended = 0;
  const counting: EventStore = {
    kind: store.kind,
    async append(streamId, events, options) {
      const result = await store.append(streamId, events, options);
      appended += events.length;
      return result;
    },
    readStream: (streamId, options) => store.readStream(streamId, options),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    waitForAppend: (timeoutMs, signal) => store.waitForAppend(timeoutMs, signal),
    headPosition: () => store.headPosition(),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  return { store: counting, appended: () => appended };
}

export interface Failures {
  count: number;
  first: string[];
}

/**
 * Runs `work(i)` for i in [0, count) on `parallel` workers. A failed item is counted and
 * the run goes on (one bad row must not lose an hour of seeding).
 */
export async function inParallel(
  count: number,
  parallel: number,
  failures: Failures,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      try {
        await work(i);
      } catch (error) {
        failures.count++;
        if (failures.first.length < 10) failures.first.push((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}

/** A one-line progress report every `everyMs`: phase, events, events/s and ETA to the target. */
export function progressLine(appended: () => number, target: number, write: (line: string) => void, everyMs = 2000) {
  const started = Date.now();
  let phase = 'starting';
  const line = () => {
    const events = appended();
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = events / seconds;
    const eta = rate > 0 && target > events ? (target - events) / rate : target > events ? null : 0;
    return `seed: ${thousands(events)} / ${thousands(target)} events | ${thousands(rate)} ev/s | ETA ${duration(eta)} | ${phase}`;
  };
  const timer = setInterval(() => write(line()), everyMs);
  timer.unref();
  return {
    phase(name: string) {
      phase = name;
    },
    stop() {
      clearInterval(timer);
      write(line());
    },
  };
}
