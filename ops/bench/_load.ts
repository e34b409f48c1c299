import autocannon from 'autocannon';
import type { Knex } from 'knex';
import type { EventStore } from '../../domain/event-store/port';
import { waitForProjections } from '../../projections/read-your-writes';

/** Load with autocannon, and waiting until the read models are current. */
export interface Measured {
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export async function cannon(options: autocannon.Options): Promise<Measured> {
  const result = await autocannon(options);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, non2xx: result.non2xx, errors: result.errors };
}

export function printRow(label: string, m: Measured): void {
  console.log(`${label.padEnd(44)} p50 ${m.p50.toFixed(1).padStart(6)} ms   p99 ${m.p99.toFixed(1).padStart(6)} ms   ${fmt(m.rps).padStart(7)} req/s   non-2xx ${m.non2xx}, errors ${m.errors}`);
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
