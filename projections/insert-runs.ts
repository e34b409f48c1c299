import type { RecordedEvent } from '../domain/event-store/port';
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
 * runs of such events become one multi-row insert; every other event is applied one by one
 * in its place. Same rows as one by one: within one statement the first of two equal keys wins.
 */
export function insertRuns(spec: InsertRun, applyOne: (context: ProjectionContext, event: RecordedEvent) => Promise<void>) {
  return async (context: ProjectionContext, events: RecordedEvent[]): Promise<void> => {
    let rows: Array<Record<string, unknown>> = [];
    const flush = async () => {
      for (let i = 0; i < rows.length; i += 1000) await context.table(spec.table).insert(rows.slice(i, i + 1000)).onConflict(spec.conflict).ignore();
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
