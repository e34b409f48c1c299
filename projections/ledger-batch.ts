import type { RecordedEvent } from '../domain/event-store/port';
import { ledgerEffect, type Fact, type LedgerMemory } from '../domain/ledger/postings';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext } from './engine/projector';

type Effect = Awaited<ReturnType<typeof ledgerEffect>>;
type Transaction = Effect['transactions'][number];

export function transactionRow(t: Transaction) {
  return {
    id: t.id,
    event_id: t.eventId,
    event_type: t.eventType,
    stream_id: t.streamId,
    kind: t.kind,
    user_id: t.userId,
    reference: t.reference,
    description: t.description,
    amount_cents: t.postings.reduce((sum, p) => sum + p.debitCents, 0),
    occurred_at: t.occurredAt,
    effective_at: t.effectiveAt,
  };
}

export function entryRows(t: Transaction) {
  return t.postings.map((posting, line) => ({
    transaction_id: t.id,
    line,
    account: posting.account,
    owner_id: posting.owner,
    debit_cents: posting.debitCents,
    credit_cents: posting.creditCents,
    effective_at: t.effectiveAt,
  }));
}

/**
 * The stored facts a page will ask for, in one query: the keys are found by a dry run of the
 * effects (a fact's key comes from the event, never from another fact). Absent facts map to
 * undefined, so only keys the dry run missed still cost a query. The dry run's effects of
 * events that asked for no fact are final: they are handed back, not computed again.
 */
async function prefetchFacts(
  context: ProjectionContext,
  events: RecordedEvent[],
): Promise<{ stored: Map<string, unknown>; final: Map<RecordedEvent, Effect> }> {
  const wanted = new Map<string, [string, string]>();
  const final = new Map<RecordedEvent, Effect>();
  let asked: boolean;
  const dryRun: LedgerMemory = {
    async get(kind, key) {
      asked = true;
      wanted.set(`${kind}\u0000${key}`, [kind, key]);
      return undefined;
    },
  };
  for (const event of events) {
    asked = false;
    const effect = await ledgerEffect(event, dryRun).catch(() => null);
    if (effect && !asked) final.set(event, effect);
  }
  const stored = new Map<string, unknown>([...wanted.keys()].map((id) => [id, undefined]));
  if (wanted.size === 0) return { stored, final };
  const pairs = [...wanted.values()];
  // Keys as two arrays joined to the table: one plan for any number of keys.
  const rows = await context.trx.raw(
    `SELECT f.kind, f.key, f.value FROM unnest(?::text[], ?::text[]) AS w(kind, key) JOIN ${context.ref('ledger_facts')} f ON f.kind = w.kind AND f.key = w.key`,
    [pairs.map(([kind]) => kind), pairs.map(([, key]) => key)],
  );
  for (const row of rows.rows as Array<{ kind: string; key: string; value: unknown }>)
    stored.set(`${row.kind}\u0000${row.key}`, row.value);
  return { stored, final };
}

/**
 * The ledger for a batch: facts remembered earlier in the batch answer from memory (as the
 * stored JSON would), cancellations drop pending rows, and what is left is written at the end:
 * deletes first, then facts (new ones inserted, known ones overwritten) and bulk inserts
 * (first row of a key wins, as ON CONFLICT DO NOTHING one by one).
 */
export async function applyLedgerBatch(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const facts = new Map<string, Fact>();
  const { stored, final } = await prefetchFacts(context, events);
  const memory: LedgerMemory = {
    async get(kind, key) {
      const id = `${kind}\u0000${key}`;
      const known = facts.get(id);
      if (known) return known.value as never;
      if (stored.has(id)) return stored.get(id) as never;
      const row = await context.table('ledger_facts').where({ kind, key }).first();
      return row?.value;
    },
  };
  const transactions = new Map<string, Transaction>();
  const cancelled = new Set<string>();
  for (const event of events) {
    const effect = final.get(event) ?? (await ledgerEffect(event, memory));
    for (const fact of effect.remember as Fact[])
      facts.set(`${fact.kind}\u0000${fact.key}`, { ...fact, value: JSON.parse(JSON.stringify(fact.value)) } as Fact);
    for (const id of effect.cancel) {
      transactions.delete(id);
      cancelled.add(id);
    }
    for (const t of effect.transactions) if (!transactions.has(t.id)) transactions.set(t.id, t);
  }
  const gone = [...cancelled];
  for (let i = 0; i < gone.length; i += 1000) {
    await context
      .table('ledger_entries')
      .whereIn('transaction_id', gone.slice(i, i + 1000))
      .delete();
    await context
      .table('ledger_transactions')
      .whereIn('id', gone.slice(i, i + 1000))
      .delete();
  }
  // Each fact is remembered by one event, so its key is new but in a replay. Rows come from
  // maps by key, and a transaction's entries are its lines: their keys are distinct.
  const factRow = (f: Fact) => ({ kind: f.kind, key: f.key, value: f.value });
  await bulkInsert(context, 'ledger_facts', [...facts.values()].map(factRow), {
    conflict: ['kind', 'key'],
    merge: true,
    expectNew: true,
    distinct: true,
  });
  await bulkInsert(context, 'ledger_transactions', [...transactions.values()].map(transactionRow), {
    conflict: ['id'],
    distinct: true,
  });
  await bulkInsert(context, 'ledger_entries', [...transactions.values()].flatMap(entryRows), {
    conflict: ['transaction_id', 'line'],
    distinct: true,
  });
}
