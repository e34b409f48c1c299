import type { RecordedEvent } from '../../domain/event-store/port';
import { bulkInsert } from './bulk-insert';
import type { ProjectionContext } from './projector';

export interface InsertRun {
  table: string;
  /** The unique key an insert of an event already applied runs into (then nothing happens). */
  conflict: string[];
  /** The row an event inserts; null for an event that does something else. */
  rowOf(event: RecordedEvent): Record<string, unknown> | null;
}

/**
 * `applyAll` for a projector whose events mostly insert one row each (ON CONFLICT DO NOTHING):
 * runs of such events become one bulk insert; every other event is applied one by one
 * in its place. Same rows as one by one: within one statement the first of two equal keys wins.
 */
export function insertRuns(
  spec: InsertRun,
  applyOne: (context: ProjectionContext, event: RecordedEvent) => Promise<void>,
) {
  return async (context: ProjectionContext, events: RecordedEvent[]): Promise<void> => {
    let rows: Array<Record<string, unknown>> = [];
    const flush = async () => {
      await bulkInsert(context, spec.table, rows, { conflict: spec.conflict });
      rows = [];
    };
    for (const event of events) {
      const row = spec.rowOf(event);
      if (row) {
        rows.push(row);
        continue;
      }
      await flush();
      await applyOne(context, event);
    }
    await flush();
  };
}
