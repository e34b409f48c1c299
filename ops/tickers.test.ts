import pino from 'pino';
import type { Knex } from 'knex';
import type { EventStore } from '../domain/event-store/port';
import { startTickers, type Ticker } from './tickers';

const deps = {
  store: {} as EventStore,
  db: {} as Knex,
  clock: () => new Date(),
  logger: pino({ level: 'silent' }),
};

describe('tickers', () => {
  it('runOnce waits for a tick already under way, then ticks afresh', async () => {
    let release!: () => void;
    const started: Array<'before' | 'after'> = [];
    let phase: 'before' | 'after' = 'before';
    let calls = 0;
    const ticker: Ticker = {
      name: 'slow',
      intervalMs: 5,
      async tick() {
        started.push(phase);
        if (++calls === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    };
    const tickers = startTickers([ticker], deps);
    while (calls === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // the scheduled tick began
    phase = 'after';
    const once = tickers.runOnce();
    release();
    await once;
    await tickers.stop();
    expect(started).toContain('after');
  });

  it('never overlaps a ticker with itself', async () => {
    let inFlight = 0;
    let most = 0;
    const ticker: Ticker = {
      name: 'overlap',
      intervalMs: 60_000,
      async tick() {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
      },
    };
    const tickers = startTickers([ticker], deps);
    await Promise.all([tickers.runOnce(), tickers.runOnce(), tickers.runOnce()]);
    await tickers.stop();
    expect(most).toBe(1);
  });
});
