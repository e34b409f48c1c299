import type { Knex } from 'knex';
import {
  comparePositions,
  formatPosition,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '../../domain/event-store/port';
import { CLEARING_ACCOUNTS, LEDGER_ACCOUNTS as A } from '../../domain/ledger/accounts';
import { EFFECT_EVENT_TYPES, obligationTracker, type Obligation } from '../../domain/ledger/effects';
import { ledgerEffect, LEDGER_EVENT_TYPES, memoryLedger, type LedgerTransaction } from '../../domain/ledger/postings';
import { balancesAt, creatorAccountDecider, type CreatorAccountState } from '../../domain/payouts/decider';
import {
  CREATOR_ACCOUNT_PREFIX,
  creatorAccountEventTypes,
  type CreatorAccountEvent,
} from '../../domain/payouts/events';
import { formatCents } from '../../domain/contracts/money';
import type { BalanceMovement } from '../../domain/wallet/events';
import { positionOf, type CheckpointRow } from '../../projections/engine/checkpoints';
import { creatorBalances } from '../../projections/creator-balances';
import { allLedgerEntries, ledgerBalance, unbalancedTransactionIds } from '../../projections/ledger';
import { readAs } from '../../projections/page-reads';
import { payoutStatesOfCreator } from '../../projections/payouts';
import { allBalances } from '../../projections/wallet-balances';
import type { OpsCommand } from './command';

/**
 * Reconciliation: replays the money events and checks that every ledger transaction balances
 * and that the ledger, creator balances, payouts and member balances read models say what
 * the events say. Read models are compared up to the position all of them have reached: they
 * may be past it (one ahead of the others, or moving on while reconcile reads them), so what
 * events after it touch (ledger transactions, the creators and members they concern) is in
 * flight and not compared.
 */

const READ_MODELS = ['ledger', 'creator_balances', 'payouts', 'wallet_balances'];
const BATCH = 2000;
/** Money younger than this may still be getting its effect (a request or process manager at work). */
export const EFFECT_GRACE_MS = 2 * 60_000;

export interface ReconcileReport {
  problems: string[];
  warnings: string[];
  checked: {
    events: number;
    transactions: number;
    creators: number;
    payouts: number;
    members: number;
    upTo: string | null;
  };
}

/**
 * Money taken without its effect (a spend whose membership, unlock, credit or earnings never
 * came): read from the whole log, not only up to the read models' position, since effects
 * follow their payment. Recent ones are only warned about: they may be in flight.
 */
async function moneyWithoutEffect(
  store: EventStore,
  now: Date,
): Promise<{ stranded: Obligation[]; inFlight: Obligation[] }> {
  const tracker = obligationTracker();
  let after: Position | null = null;
  for (;;) {
    const events = await store.readAll({ after, maxCount: BATCH, types: EFFECT_EVENT_TYPES });
    for (const event of events) tracker.observe(event);
    if (events.length < BATCH) return tracker.outstanding(now, EFFECT_GRACE_MS);
    after = events[events.length - 1].position;
  }
}

const describeObligation = (o: Obligation) =>
  `${formatCents(o.amountCents)} paid for ${o.paidFor} (${o.eventType} ${o.eventId} on ${o.streamId}, ${o.occurredAt}, user ${o.userId}) is still owed ${o.owed}`;

async function readUpTo(
  store: EventStore,
  bound: Position,
  onEvent: (event: RecordedEvent) => Promise<void>,
): Promise<number> {
  let after: Position | null = null;
  let count = 0;
  for (;;) {
    const events = await store.readAll({ after, maxCount: BATCH });
    for (const event of events) {
      if (comparePositions(event.position, bound) > 0) return count;
      count++;
      await onEvent(event);
    }
    if (events.length < BATCH) return count;
    after = events[events.length - 1].position;
  }
}

/**
 * What the events after `bound` touch: ledger transactions they write or cancel, and the owners
 * (creators, members) of their money. Read after the read models were: every event a read model
 * had applied by then is readable now (a projector read it), so any row ahead of `bound` is named here.
 */
async function touchedAfter(
  store: EventStore,
  bound: Position,
  memory: ReturnType<typeof memoryLedger>,
): Promise<{ transactions: Set<string>; owners: Set<string> }> {
  const ledgerTypes = new Set(LEDGER_EVENT_TYPES);
  const transactions = new Set<string>();
  const owners = new Set<string>();
  let after = bound;
  for (;;) {
    const events = await store.readAll({ after, maxCount: BATCH });
    for (const event of events) {
      if (ledgerTypes.has(event.type)) {
        const effect = await ledgerEffect(event, memory);
        memory.apply(effect);
        for (const id of effect.cancel) transactions.add(id);
        for (const transaction of effect.transactions) {
          transactions.add(transaction.id);
          for (const posting of transaction.postings) if (posting.owner !== null) owners.add(posting.owner);
        }
      }
      if (event.streamId.startsWith(CREATOR_ACCOUNT_PREFIX))
        owners.add(event.streamId.slice(CREATOR_ACCOUNT_PREFIX.length));
      if (event.type === 'WalletCredited' || event.type === 'WalletDebited')
        owners.add((event.data as BalanceMovement).userId);
    }
    if (events.length < BATCH) return { transactions, owners };
    after = events[events.length - 1].position;
  }
}

const postingKey = (p: { account: string; owner: string | null; debitCents: number; creditCents: number }) =>
  `${p.account}|${p.owner ?? ''}|${p.debitCents}|${p.creditCents}`;

export async function reconcile({ store, db }: { store: EventStore; db: Knex }, now: Date): Promise<ReconcileReport> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const rows = await db<CheckpointRow>('projection_checkpoints').whereIn('name', READ_MODELS);
  const missing = READ_MODELS.filter((name) => !rows.some((row) => row.name === name));
  if (missing.length) {
    problems.push(`read models not built yet: ${missing.join(', ')} (start the stack once)`);
    return {
      problems,
      warnings,
      checked: { events: 0, transactions: 0, creators: 0, payouts: 0, members: 0, upTo: null },
    };
  }
  const positions = rows.map(positionOf).sort(comparePositions);
  const bound = positions[0];
  if (comparePositions(positions[0], positions[positions.length - 1]) !== 0) {
    warnings.push(
      `read models are at different positions (${rows.map((r) => `${r.name} ${formatPosition(positionOf(r))}`).join(', ')}); compared up to ${formatPosition(bound)}; events after it are in flight`,
    );
  }

  // Replay the money events.
  const ledgerTypes = new Set(LEDGER_EVENT_TYPES);
  const creatorTypes = new Set<string>(creatorAccountEventTypes);
  const memory = memoryLedger();
  const expected = new Map<string, LedgerTransaction>();
  const creators = new Map<string, CreatorAccountState>();
  const wallets = new Map<string, number>();
  const events = await readUpTo(store, bound, async (event) => {
    if (ledgerTypes.has(event.type)) {
      const effect = await ledgerEffect(event, memory);
      memory.apply(effect);
      for (const id of effect.cancel) expected.delete(id);
      for (const transaction of effect.transactions) expected.set(transaction.id, transaction);
    }
    if (creatorTypes.has(event.type) && event.streamId.startsWith(CREATOR_ACCOUNT_PREFIX)) {
      const creatorId = event.streamId.slice(CREATOR_ACCOUNT_PREFIX.length);
      const state = creators.get(creatorId) ?? creatorAccountDecider.initialState;
      creators.set(
        creatorId,
        creatorAccountDecider.evolve(state, { type: event.type, data: event.data } as CreatorAccountEvent),
      );
    }
    if (event.type === 'WalletCredited' || event.type === 'WalletDebited') {
      const d = event.data as BalanceMovement;
      wallets.set(
        d.userId,
        (wallets.get(d.userId) ?? 0) + (event.type === 'WalletCredited' ? d.amountCents : -d.amountCents),
      );
    }
  });

  // 1. Every transaction balances (in the read model and in the mapping).
  for (const transaction of expected.values()) {
    const sum = transaction.postings.reduce((s, p) => s + p.debitCents - p.creditCents, 0);
    if (sum !== 0)
      problems.push(
        `mapping of ${transaction.eventType} ${transaction.eventId} does not balance (off by ${formatCents(sum)})`,
      );
  }
  for (const id of await unbalancedTransactionIds(db)) problems.push(`ledger transaction ${id} does not balance`);

  // Read models against the events: what events after the bound touch is sorted out at the end.
  const differences: Array<{ text: string; transaction?: string; owner?: string }> = [];

  // 2. The ledger read model holds exactly the transactions the events give.
  const actual = new Map<string, string[]>();
  for (const e of await allLedgerEntries(db)) {
    const list = actual.get(e.transactionId) ?? [];
    list.push(
      postingKey({ account: e.account, owner: e.ownerId, debitCents: e.debitCents, creditCents: e.creditCents }),
    );
    actual.set(e.transactionId, list);
  }
  for (const [id, transaction] of expected) {
    if (transaction.postings.length === 0) continue;
    const want = transaction.postings.map(postingKey).sort().join(';');
    const got = (actual.get(id) ?? []).sort().join(';');
    if (!actual.has(id))
      differences.push({
        transaction: id,
        text: `ledger is missing ${transaction.kind} transaction ${id} (${transaction.eventType} on ${transaction.streamId})`,
      });
    else if (want !== got)
      differences.push({
        transaction: id,
        text: `ledger transaction ${id} differs from its event: expected ${want}, found ${got}`,
      });
  }
  for (const id of actual.keys())
    if (!expected.has(id))
      differences.push({ transaction: id, text: `ledger transaction ${id} has no event behind it` });

  // 3. Creator balances and payouts.
  let payouts = 0;
  for (const [creatorId, state] of creators) {
    const truth = balancesAt(state, now);
    const readModel = await creatorBalances(readAs(db, null), creatorId, now);
    const compare = (what: string, want: number, got: number, source: string) => {
      if (want !== got)
        differences.push({
          owner: creatorId,
          text: `creator ${creatorId}: ${what} is ${formatCents(got)} in ${source}, events say ${formatCents(want)}`,
        });
    };
    compare('available balance', truth.availableCents, readModel.availableCents, 'creator_balances');
    compare('pending balance', truth.pendingCents, readModel.pendingCents, 'creator_balances');
    compare('total earnings', truth.totalEarningsCents, readModel.totalEarningsCents, 'creator_balances');
    compare(
      'available balance',
      truth.availableCents,
      await ledgerBalance(db, A.creatorAvailable, creatorId, now),
      'the ledger',
    );
    compare(
      'pending balance',
      truth.pendingCents,
      await ledgerBalance(db, A.creatorPending, creatorId, now),
      'the ledger',
    );
    const inTransit = Object.values(state.payouts)
      .filter((p) => p.status === 'pending' || p.status === 'processing')
      .reduce((s, p) => s + p.amountCents, 0);
    compare('payouts in transit', inTransit, await ledgerBalance(db, A.payoutsInTransit, creatorId, now), 'the ledger');
    const rowsById = await payoutStatesOfCreator(db, creatorId);
    for (const payout of Object.values(state.payouts)) {
      payouts++;
      const row = rowsById.get(payout.payoutId);
      if (!row)
        differences.push({
          owner: creatorId,
          text: `payout ${payout.payoutId} of creator ${creatorId} is missing from the payouts read model`,
        });
      else if (row.status !== payout.status || row.amountCents !== payout.amountCents) {
        differences.push({
          owner: creatorId,
          text: `payout ${payout.payoutId}: read model says ${row.status} ${formatCents(row.amountCents)}, events say ${payout.status} ${formatCents(payout.amountCents)}`,
        });
      }
    }
  }

  // 4. Member balances.
  const walletRows = await allBalances(db);
  for (const [userId, balance] of wallets) {
    const readModel = walletRows.get(userId);
    if (readModel !== balance)
      differences.push({
        owner: userId,
        text: `member ${userId}: balance is ${readModel === undefined ? 'missing' : formatCents(readModel)} in wallet_balances, events say ${formatCents(balance)}`,
      });
    const ledger = await ledgerBalance(db, A.memberBalance, userId, now);
    if (ledger !== balance)
      differences.push({
        owner: userId,
        text: `member ${userId}: balance is ${formatCents(ledger)} in the ledger, events say ${formatCents(balance)}`,
      });
  }

  // Read models past the bound: a difference over what later events touch is in flight, not a problem.
  const touched = await touchedAfter(store, bound, memory);
  const ahead = (d: (typeof differences)[number]) =>
    d.transaction !== undefined ? touched.transactions.has(d.transaction) : touched.owners.has(d.owner!);
  for (const difference of differences) if (!ahead(difference)) problems.push(difference.text);
  const skipped = differences.filter(ahead).length;
  if (skipped)
    warnings.push(`${skipped} difference(s) concern events after ${formatPosition(bound)} (in flight), not compared`);

  // 5. Every payment has its effect (or was given back).
  const { stranded, inFlight } = await moneyWithoutEffect(store, now);
  for (const o of stranded) problems.push(`money without its effect: ${describeObligation(o)}`);
  for (const o of inFlight) warnings.push(`in flight: ${describeObligation(o)}`);

  // Pass-through accounts are empty once every flow has finished.
  for (const account of CLEARING_ACCOUNTS) {
    const balance = await ledgerBalance(db, account, null, now);
    if (balance !== 0)
      warnings.push(
        `${account} holds ${formatCents(balance)} (flows in progress, or sales whose earnings were reversed)`,
      );
  }

  return {
    problems,
    warnings,
    checked: {
      events,
      transactions: expected.size,
      creators: creators.size,
      payouts,
      members: wallets.size,
      upTo: formatPosition(bound),
    },
  };
}

export const reconcileCommand: OpsCommand = {
  name: 'reconcile',
  args: '',
  summary: 'Check that every ledger transaction balances and each money read model matches the events',
  help: `Replays the money events (card charges and refunds, tier charges, message unlocks, crypto
conversions and their fees, balance movements, creator earnings, payouts and their fees) and
checks: every ledger transaction balances; the ledger holds exactly the transactions the events
give; each creator's available and pending balance, total earnings and payouts in the
creator_balances and payouts read models and in the ledger equal the events; each member's
balance in wallet_balances and the ledger equals the events; and no money was taken without its
effect: every membership payment (card or balance) has its membership time or a refund, every
unlock spend its unlocked message, every completed conversion its balance credit, every creator
sale its earnings (younger than two minutes: a warning, it may be in flight). Balances are taken
at the current time (earnings leave the 7-day hold by the clock). Prints a report; exit code 1 when anything
differs. Warnings (e.g. non-empty clearing accounts) do not fail it.`,
  async run(_args, context) {
    const connection = await context.connect();
    const report = await reconcile(connection, new Date());
    const c = report.checked;
    context.out(
      `Checked ${c.events} events up to ${c.upTo ?? '-'}: ${c.transactions} ledger transactions, ${c.creators} creators, ${c.payouts} payouts, ${c.members} member balances.`,
    );
    for (const warning of report.warnings) context.out(`warning: ${warning}`);
    if (report.problems.length === 0) {
      context.out('OK: every transaction balances and every balance matches the events.');
      return 0;
    }
    context.out(`${report.problems.length} problem(s):`);
    for (const problem of report.problems) context.out(`  - ${problem}`);
    return 1;
  },
};
