import type { RecordedEvent } from '../domain/event-store/port';
import { KeyedRows, type Row } from './engine/keyed-rows';
import type { ProjectionContext } from './engine/projector';

/** What a receipt keeps of a person (`billing_history_people`). */
export interface BillingPerson {
  name: string;
  card_last4: string | null;
}

/**
 * What an event of a run may do to the billing tables: only reads and writes by key (a person
 * by user id, a row by id), each the in-memory twin of one statement of the event-by-event code.
 */
export interface BillingMemory {
  person(userId: string): BillingPerson | undefined;
  /** INSERT … ON CONFLICT (user_id) DO UPDATE. */
  putPerson(userId: string, person: BillingPerson): void;
  /** UPDATE … WHERE user_id: nothing for a person not there. */
  updatePerson(userId: string, changes: Partial<BillingPerson>): void;
  /** INSERT … ON CONFLICT (id) DO NOTHING: the first row of an id stays. */
  insert(row: { id: string }): void;
  /** UPDATE … WHERE id: nothing for a row not there. */
  update(id: string, changes: object): void;
}

export type InMemory = (memory: BillingMemory, event: RecordedEvent) => void;
type Apply = (context: ProjectionContext, event: RecordedEvent) => Promise<void>;

/**
 * The people and rows a run reads or changes, found by a dry run: each key comes from the event
 * itself, never from a row read. The ids of inserted rows are not read: the bulk insert keeps a
 * stored row of the same id (a replay), as ON CONFLICT DO NOTHING would.
 */
function keysOf(run: RecordedEvent[], handlers: Record<string, InMemory>) {
  const people = new Set<string>();
  const rows = new Set<string>();
  const dryRun: BillingMemory = {
    person: (userId) => void people.add(userId),
    putPerson: (userId) => void people.add(userId),
    updatePerson: (userId) => void people.add(userId),
    insert: () => undefined,
    update: (id) => void rows.add(id),
  };
  for (const event of run) handlers[event.type]?.(dryRun, event);
  return { people, rows };
}

/**
 * A run in four statements: the people and the changed rows read once, every event applied in
 * memory in log order (so each sees the ones before it), then both tables written in bulk.
 */
async function applyRun(context: ProjectionContext, run: RecordedEvent[], handlers: Record<string, InMemory>) {
  const keys = keysOf(run, handlers);
  const people = await KeyedRows.load(context, 'billing_history_people', 'user_id', keys.people);
  const rows = await KeyedRows.load(context, 'billing_history', 'id', keys.rows);
  const memory: BillingMemory = {
    person: (userId) => people.get(userId) as BillingPerson | undefined,
    // Object.assign rather than spreads: see `row` in billing-history.ts.
    putPerson: (userId, person) => people.set(userId, Object.assign({ user_id: userId } as Row, person)),
    updatePerson: (userId, changes) => people.change(userId, (person) => person && Object.assign({}, person, changes)),
    insert: (row) => rows.change(row.id, (stored) => stored ?? (row as Row)),
    update: (id, changes) => rows.change(id, (row) => row && Object.assign({}, row, changes)),
  };
  for (const event of run) handlers[event.type]?.(memory, event);
  await people.store();
  await rows.store();
}

/**
 * `applyAll`, and `apply` as a batch of one, for billing history: runs of events applied in
 * memory (`inMemory`); an event that `alone` names a statement for (one that finds rows by
 * something else than their key: a refund's charge, a deleted creator's receipts) goes by
 * itself in its place, after the rows of the run before it are written.
 */
export function billingBatches(inMemory: Record<string, InMemory>, alone: (event: RecordedEvent) => Apply | undefined) {
  const applyAll = async (context: ProjectionContext, events: RecordedEvent[]): Promise<void> => {
    let run: RecordedEvent[] = [];
    for (const event of events) {
      const single = alone(event);
      if (!single) {
        run.push(event);
        continue;
      }
      if (run.length) await applyRun(context, run, inMemory);
      run = [];
      await single(context, event);
    }
    if (run.length) await applyRun(context, run, inMemory);
  };
  return { applyAll, apply: (context: ProjectionContext, event: RecordedEvent) => applyAll(context, [event]) };
}
