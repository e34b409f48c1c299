import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import type { Projector } from '../../projections/engine/projector';
import { startProjectors } from '../commands/projectors';

/**
 * A projector process for ops/fault-tolerance.test.ts: runs audit projections that count how
 * often each event was applied, and prints the projections it holds every 100 ms.
 */
export function auditProjector(name: string): Projector {
  return {
    name,
    version: 1,
    tables: [name],
    eventTypes: ['Audited'],
    async createTables(db, schema) {
      await db.schema.withSchema(schema).createTable(name, (t) => {
        t.uuid('event_id').primary();
        t.integer('applications').notNullable();
      });
    },
    // Deliberately not idempotent: an event applied twice shows as applications = 2.
    async apply({ trx, ref }, event) {
      await trx.raw(
        `INSERT INTO ${ref(name)} (event_id, applications) VALUES (?, 1) ON CONFLICT (event_id) DO UPDATE SET applications = ${ref(name)}.applications + 1`,
        [event.eventId],
      );
    },
  };
}

export const AUDITS = ['audit_a', 'audit_b', 'audit_c'];

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL!;
  const store = new PostgresEventStore({ connectionString: databaseUrl });
  const db = openReadDatabase(databaseUrl, 5);
  const runner = await startProjectors({ store, db, databaseUrl }, AUDITS.map(auditProjector), { lockRetryMs: 300 });
  setInterval(
    () => process.stdout.write(`${JSON.stringify({ pid: process.pid, owned: runner.ownedProjections().sort() })}\n`),
    100,
  );
  process.once('SIGTERM', () => void runner.stop().then(() => process.exit(0)));
}

if (require.main === module) void main();
