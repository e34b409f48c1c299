import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EventStore } from '../domain/event-store/port';

/**
 * Periodic work driven by the clock rather than by events: renewals falling due, crypto
 * conversions to check with the processor. Every tick must be idempotent (deterministic
 * event ids, idempotent commands): two processes ticking at once write each fact once.
 */
export interface Ticker {
  name: string;
  intervalMs: number;
  tick(context: { store: EventStore; db: Knex; now: Date }): Promise<void>;
}

export interface RunningTickers {
  /** Runs every ticker once, each tick starting after this call (tests drive time with an injected clock). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export function startTickers(
  tickers: Ticker[],
  deps: { store: EventStore; db: Knex; clock: () => Date; logger: Logger },
): RunningTickers {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();

  const runTicker = (ticker: Ticker): Promise<void> => {
    const current = running.get(ticker.name);
    if (current) return current; // never overlap a ticker with itself
    const work = ticker
      .tick({ store: deps.store, db: deps.db, now: deps.clock() })
      .catch((error) => {
        if (!stopped) deps.logger.warn({ err: error, ticker: ticker.name }, 'ticker failed');
      })
      .finally(() => running.delete(ticker.name));
    running.set(ticker.name, work);
    return work;
  };

  const schedule = (ticker: Ticker) => {
    if (stopped) return;
    const timer = setTimeout(async () => {
      timers.delete(timer);
      await runTicker(ticker);
      schedule(ticker);
    }, ticker.intervalMs);
    timers.add(timer);
  };
  tickers.forEach(schedule);

  return {
    async runOnce() {
      // A tick already under way read its state before this call: let it end, then tick afresh.
      const afresh = async (ticker: Ticker) => {
        await running.get(ticker.name);
        await runTicker(ticker);
      };
      await Promise.all(tickers.map(afresh));
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
