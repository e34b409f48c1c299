import type { Knex } from 'knex';
import { creatorSubscriptionStream } from '../domain/creators/events';
import { creatorSubscriptionDecider, type CreatorSubscriptionCommand } from '../domain/creators/subscription-decider';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { creatorSubscriptionsDue, creatorSubscriptionsProjector } from './creator-subscriptions';
import { projectionContext } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';

let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

const creator = '11111111-1111-4111-8111-111111111111';
const [renewing, canceled, declined, refunded] = ['2', '3', '4', '5'].map(
  (d) => `${d.repeat(8)}-${d.repeat(4)}-4${d.repeat(3)}-8${d.repeat(3)}-${d.repeat(12)}`,
);
const T0 = new Date('2026-01-10T10:00:00.000Z');
const END = '2026-02-10T10:00:00.000Z';
const day = (n: number, from: Date | string = T0) => new Date(new Date(from).getTime() + n * 86_400_000);
const BASIC = { tierId: 'basic', name: 'Basic', priceCents: 499 };
const PREMIUM = { tierId: 'premium', name: 'Premium', priceCents: 1999 };

async function run(member: string, commands: CreatorSubscriptionCommand[]) {
  for (const command of commands)
    await handleCommand(store, creatorSubscriptionStream(member, creator), creatorSubscriptionDecider, command, {
      actorId: member,
      now: command.at,
    });
}

const start = (member: string): CreatorSubscriptionCommand => ({
  type: 'StartCreatorSubscription',
  subscriptionId: `sub-${member.slice(0, 1)}`,
  subscriberId: member,
  creatorId: creator,
  tier: BASIC,
  transactionId: `tx-${member.slice(0, 1)}`,
  at: T0,
});

const renewal = (attempt: number, at: Date, paid: boolean, tier = BASIC): CreatorSubscriptionCommand => ({
  type: 'RecordCreatorRenewal',
  periodEnd: END,
  attempt,
  renewalId: `renewal-${attempt}`,
  tier,
  outcome: paid
    ? { paid: true, paidFrom: 'card', transactionId: `tx-renewal-${attempt}` }
    : { paid: false, failureReason: 'declined' },
  at,
});

let log: RecordedEvent[];

beforeAll(async () => {
  await run(renewing, [
    start(renewing),
    { type: 'ChangeCreatorSubscriptionTier', tier: PREMIUM, at: day(2) },
    renewal(1, new Date(END), true, PREMIUM),
  ]);
  await run(canceled, [
    start(canceled),
    { type: 'CancelCreatorSubscription', at: day(3) },
    { type: 'ResumeCreatorSubscription', at: day(4) },
    { type: 'CancelCreatorSubscription', at: day(5) },
  ]);
  await run(declined, [start(declined), renewal(1, new Date(END), false)]);
  await run(refunded, [
    start(refunded),
    {
      type: 'RecordCreatorSubscriptionRefund',
      transactionId: `tx-${refunded.slice(0, 1)}`,
      gatewayRefundId: 'rf-1',
      amountCents: 499,
      reason: 'money-back guarantee',
      at: day(2),
    },
  ]);
  log = await readWholeLog(store);
});

describe('creator subscriptions read model', () => {
  it('rebuilds the same rows from the events, applied twice or as one batch', async () => {
    const { once, twice } = await replayTwice(db, creatorSubscriptionsProjector, log);
    expect(twice).toEqual(once);
    const schema = 'subscriptions_batch';
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; CREATE SCHEMA "${schema}"`);
    await creatorSubscriptionsProjector.createTables(db, schema);
    const handled = log.filter((event) => creatorSubscriptionsProjector.eventTypes.includes(event.type));
    await db.transaction((trx) => creatorSubscriptionsProjector.applyAll!(projectionContext(trx, schema), handled));
    expect(await dumpTables(db, creatorSubscriptionsProjector, schema)).toEqual(once);
  });

  it('keeps status, access end, next attempt and the next tier as the events say', async () => {
    const { once } = await replayTwice(db, creatorSubscriptionsProjector, log);
    const rows = (once.creator_subscriptions as string[]).map((row) => JSON.parse(row) as Record<string, unknown>);
    const of = (member: string) => rows.find((row) => row.subscriber_id === member)!;
    const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());
    const view = (member: string) => {
      const row = of(member);
      return {
        status: row.status,
        tier: row.tier_id,
        price: row.price_cents,
        end: iso(row.end_date),
        renewsAt: iso(row.renews_at),
        next: row.next_tier_id,
      };
    };
    expect(view(renewing)).toEqual({
      status: 'active',
      tier: 'premium',
      price: 1999,
      end: '2026-03-10T10:00:00.000Z',
      renewsAt: '2026-03-10T10:00:00.000Z',
      next: null,
    });
    expect(view(canceled)).toMatchObject({ status: 'canceled', end: END, renewsAt: null });
    expect(view(declined)).toMatchObject({
      status: 'past_due',
      end: day(7, END).toISOString(),
      renewsAt: day(1, END).toISOString(),
    });
    expect(view(refunded)).toMatchObject({ status: 'refunded', end: day(2).toISOString(), renewsAt: null });
  });

  it('lists the subscriptions the renewal process has work on at a moment', async () => {
    await creatorSubscriptionsProjector.createTables(db, 'public');
    await db.transaction(async (trx) => {
      const context = projectionContext(trx, 'public');
      for (const event of log)
        if (creatorSubscriptionsProjector.eventTypes.includes(event.type))
          await creatorSubscriptionsProjector.apply(context, event);
    });
    const due = async (at: Date) => (await creatorSubscriptionsDue(db, at)).map((pair) => pair.subscriberId).sort();
    expect(await due(day(10))).toEqual([]);
    // The canceled one expires at its period end; the declined one's retry comes a day later.
    expect(await due(new Date(END))).toEqual([canceled]);
    expect(await due(day(1, END))).toEqual([canceled, declined].sort());
    expect(await due(day(29, END))).toEqual([renewing, canceled, declined].sort());
  });
});
