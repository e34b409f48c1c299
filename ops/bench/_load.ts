import autocannon from 'autocannon';
import type { Knex } from 'knex';
import type { EventStore } from '../../domain/event-store/port';
import { waitForProjections } from '../../projections/engine/read-your-writes';

/** Load with autocannon, and waiting until the read models are current. */
export interface Measured {
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * At a fixed rate, latencies are recorded as measured. autocannon's coordinated-omission
 * correction takes ceil(1 / per-connection rate) as the expected interval in milliseconds
 * (20 requests/s per connection gives 1 ms, not 50 ms), so it adds a synthetic sample for every
 * millisecond of every response and skews the percentiles towards the slow ones. Omission can
 * only happen when the generator falls behind its rate; that is checked here instead.
 */
export async function cannon(options: autocannon.Options): Promise<Measured> {
  const atRate = options.overallRate !== undefined;
  const result = await autocannon({ ...options, ignoreCoordinatedOmission: atRate });
  const measured = {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  if (atRate && options.duration && result.requests.total < 0.98 * options.overallRate! * options.duration) {
    console.log(
      `  note: ${fmt(result.requests.total)} requests in ${options.duration} s, short of ${fmt(options.overallRate! * options.duration)}: the rate was not kept`,
    );
  }
  return measured;
}

export function printRow(label: string, m: Measured): void {
  console.log(
    `${label.padEnd(44)} p50 ${m.p50.toFixed(1).padStart(6)} ms   p99 ${m.p99.toFixed(1).padStart(6)} ms   ${fmt(m.rps).padStart(7)} req/s   non-2xx ${m.non2xx}, errors ${m.errors}`,
  );
}

/**
 * Load at a steady `rate`: autocannon's rate limit lets each connection send its whole budget
 * for a second back to back, so 10 connections at 200/s hit the server as 10 concurrent
 * requests for the first third of each second and then nothing (a test of peak throughput, not
 * of latency at 200/s). Here `streams` autocannon runs of one connection each share the rate and
 * start their seconds evenly staggered, so requests arrive spread through each second. Their
 * latencies are pooled into one distribution.
 */
export async function paced(options: {
  url: string;
  rate: number;
  duration: number;
  requests?: autocannon.Request[];
  streams?: number;
}): Promise<Measured> {
  const streams = options.streams ?? 20;
  const latencies: number[] = [];
  let non2xx = 0;
  const runs = Array.from({ length: streams }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, (i * 1000) / streams));
    const run = autocannon({
      url: options.url,
      connections: 1,
      overallRate: options.rate / streams,
      duration: options.duration,
      requests: options.requests,
      ignoreCoordinatedOmission: true,
    });
    run.on('response', (_client, statusCode, _bytes, milliseconds) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(milliseconds);
      else non2xx++;
    });
    return run;
  });
  const results = await Promise.all(runs);
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  if (total < 0.98 * options.rate * options.duration)
    console.log(
      `  note: ${fmt(total)} requests in ${options.duration} s, short of ${fmt(options.rate * options.duration)}: the rate was not kept`,
    );
  return {
    p50: percentile(50),
    p99: percentile(99),
    rps: total / options.duration,
    non2xx,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** Requests that take turns over `targets`, each with its path and session cookie. */
export function rotating(targets: Array<{ path: string; cookie: string }>): autocannon.Request {
  let turn = 0;
  return {
    method: 'GET',
    setupRequest: (req) => {
      const target = targets[turn++ % targets.length];
      return { ...req, path: target.path, headers: { ...req.headers, cookie: target.cookie } };
    },
  };
}

/**
 * Waits until every projection and process manager has applied the head of the log, and the
 * head stopped moving (process managers append events of their own, e.g. earnings credits).
 */
export async function settle(store: EventStore, db: Knex): Promise<void> {
  process.stdout.write('  waiting for the read models and process managers to catch up...');
  for (;;) {
    const head = await store.headPosition();
    // Names are re-read each round: a blue/green rebuild adds and later drops a checkpoint.
    const names = async () => (await db('projection_checkpoints').select('name')).map((row) => row.name as string);
    while (!(await waitForProjections(db, await names(), head, 5000))) process.stdout.write('.');
    const after = await store.headPosition();
    if (head && after && after.commit === head.commit && after.prepare === head.prepare) break;
  }
  console.log(' done');
}
