import type { Knex } from 'knex';
import type { RecordedEvent } from '../../../domain/event-store/port';
import { projectionContext, type Projector } from '../projector';

/** Every row of the projector's tables in `schema`, in a stable order: for comparing builds. */
export async function dumpTables(db: Knex, projector: Projector, schema: string): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const table of projector.tables) {
    const rows = await db.withSchema(schema).table(table).select('*');
    dump[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return dump;
}

/**
 * Builds the read model from `events` twice in two fresh schemas: once plainly, once with
 * every event applied twice in a row. A projector is idempotent when both dumps are equal.
 */
export async function replayTwice(db: Knex, projector: Projector, events: RecordedEvent[]) {
  const build = async (schema: string, times: number) => {
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.raw(`CREATE SCHEMA "${schema}"`);
    await projector.createTables(db, schema);
    const handled = new Set(projector.eventTypes);
    await db.transaction(async (trx) => {
      const context = projectionContext(trx, schema);
      for (const event of events) {
        if (!handled.has(event.type)) continue;
        for (let i = 0; i < times; i++) await projector.apply(context, event);
      }
    });
    return dumpTables(db, projector, schema);
  };
  const once = await build(`replay_once_${projector.name}`, 1);
  const twice = await build(`replay_twice_${projector.name}`, 2);
  return { once, twice };
}
