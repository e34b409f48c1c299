import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../domain/event-store/port';
import { deciderSpec } from '../domain/shared/testing/decider-spec';
import { creatorAccountDecider, type CreatorAccountCommand } from '../domain/payouts/decider';
import type { CreatorAccountEvent } from '../domain/payouts/events';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { creatorBalancesProjector } from './creator-balances';
import { paymentAccountsProjector } from './payment-accounts';
import { payoutsProjector } from './payouts';
import { projectionContext } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

/** A creator's history through the decider: earnings, accounts, payouts in every end state. */
function history(): RecordedEvent[] {
  const t = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * 86_400_000);
  const commands: CreatorAccountCommand[] = [
    {
      type: 'CreditEarnings',
      creatorId: 'c1',
      source: 'subscription',
      reference: 'a',
      payerId: 'm',
      grossCents: 1999,
      occurredAt: t(0),
    },
    {
      type: 'CreditEarnings',
      creatorId: 'c1',
      source: 'message_unlock',
      reference: 'b',
      payerId: 'm',
      grossCents: 500,
      occurredAt: t(1),
    },
    {
      type: 'AddPaymentAccount',
      creatorId: 'c1',
      paymentAccountId: 'pa1',
      accountType: 'bank_account',
      accountHolderName: 'C',
      bankAccountLast4: '1234',
      routingNumber: '110000000',
      stripeAccountId: null,
      makeDefault: false,
      isVerified: true,
      now: t(1),
    },
    {
      type: 'AddPaymentAccount',
      creatorId: 'c1',
      paymentAccountId: 'pa2',
      accountType: 'stripe',
      accountHolderName: 'C',
      bankAccountLast4: null,
      routingNumber: null,
      stripeAccountId: 'acct_1',
      makeDefault: true,
      isVerified: true,
      now: t(1),
    },
    {
      type: 'AddPaymentAccount',
      creatorId: 'c1',
      paymentAccountId: 'pa3',
      accountType: 'bank_account',
      accountHolderName: 'C',
      bankAccountLast4: '5555',
      routingNumber: '999999999',
      stripeAccountId: null,
      makeDefault: false,
      isVerified: false,
      now: t(1),
    },
    {
      type: 'AddPaymentAccount',
      creatorId: 'c1',
      paymentAccountId: 'pa4',
      accountType: 'bank_account',
      accountHolderName: 'C',
      bankAccountLast4: '4444',
      routingNumber: '999999998',
      stripeAccountId: null,
      makeDefault: false,
      isVerified: false,
      now: t(1),
    },
    {
      type: 'RecordPaymentAccountVerification',
      creatorId: 'c1',
      paymentAccountId: 'pa3',
      outcome: { status: 'verified' },
      now: t(2),
    },
    {
      type: 'RecordPaymentAccountVerification',
      creatorId: 'c1',
      paymentAccountId: 'pa4',
      outcome: { status: 'failed', failureReason: 'Bank account could not be verified' },
      now: t(2),
    },
    { type: 'RequestPayout', creatorId: 'c1', payoutId: 'p1', paymentAccountId: 'pa1', amountCents: 1799, now: t(7) },
    { type: 'CancelPayout', creatorId: 'c1', payoutId: 'p1', reason: 'oops', staffId: 's', now: t(7) },
    { type: 'RequestPayout', creatorId: 'c1', payoutId: 'p2', paymentAccountId: 'pa2', amountCents: 2249, now: t(9) },
    {
      type: 'StartPayoutProcessing',
      creatorId: 'c1',
      payoutId: 'p2',
      gatewayTransactionId: 'tr',
      staffId: 's',
      now: t(9),
    },
    { type: 'CompletePayout', creatorId: 'c1', payoutId: 'p2', staffId: 's', now: t(10) },
    {
      type: 'CreditEarnings',
      creatorId: 'c1',
      source: 'subscription',
      reference: 'c',
      payerId: 'm',
      grossCents: 100,
      occurredAt: t(10),
    },
    { type: 'ReverseEarnings', creatorId: 'c1', reference: 'c', reason: 'refund', now: t(11) },
  ];
  const events: CreatorAccountEvent[] = deciderSpec(creatorAccountDecider).given().whenEach(commands).events;
  return events.map((event, index) => ({
    eventId: randomUUID(),
    streamId: 'creatorAccount-c1',
    revision: BigInt(index),
    position: { commit: 1n, prepare: BigInt(index) },
    type: event.type,
    data: event.data,
    metadata: {},
    createdAt: new Date().toISOString(),
  }));
}

describe('payout read models', () => {
  it.each([payoutsProjector, paymentAccountsProjector, creatorBalancesProjector])(
    '$name is idempotent',
    async (projector) => {
      const { once, twice } = await replayTwice(db, projector, history());
      expect(twice).toEqual(once);
      expect(Object.values(once).some((rows) => rows.length > 0)).toBe(true);
    },
  );

  it.each([payoutsProjector, paymentAccountsProjector])(
    '$name: applyAll (one batch, or batches of 2; then the history again) leaves the rows apply leaves',
    async (projector) => {
      const events = history().filter((event) => projector.eventTypes.includes(event.type));
      /** The tables after `batches`, each applied with applyAll, or event by event with apply. */
      const build = async (schema: string, batches: RecordedEvent[][], batched: boolean) => {
        await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.raw(`CREATE SCHEMA "${schema}"`);
        await projector.createTables(db, schema);
        await db.transaction(async (trx) => {
          for (const batch of batches)
            if (batched) await projector.applyAll!(projectionContext(trx, schema), batch);
            else for (const event of batch) await projector.apply(projectionContext(trx, schema), event);
        });
        return dumpTables(db, projector, schema);
      };
      const pairs = Array.from({ length: Math.ceil(events.length / 2) }, (_, i) => events.slice(2 * i, 2 * i + 2));
      // The whole history applied again (a new default clears the others again, one by one too).
      const once = await build(`one_by_one_${projector.name}`, [events], false);
      const again = await build(`one_by_one_again_${projector.name}`, [events, events], false);
      expect(await build(`apply_all_${projector.name}`, [events], true)).toEqual(once);
      expect(await build(`apply_all_pairs_${projector.name}`, pairs, true)).toEqual(once);
      expect(await build(`apply_all_again_${projector.name}`, [...pairs, events], true)).toEqual(again);
    },
  );

  it('keeps one default payment account and each payout in its end state', async () => {
    await replayTwice(db, payoutsProjector, history());
    await replayTwice(db, paymentAccountsProjector, history());
    const payouts = await db.withSchema('replay_twice_payouts').table('payouts').orderBy('id');
    expect(payouts.map((p) => [p.id, p.status, p.amount_cents])).toEqual([
      ['p1', 'cancelled', '1799'],
      ['p2', 'completed', '2249'],
    ]);
    const accounts = await db.withSchema('replay_twice_payment_accounts').table('payment_accounts').orderBy('id');
    expect(
      accounts.map((a) => [a.id, a.is_default, a.is_verified, a.verification_status, a.verification_failure_reason]),
    ).toEqual([
      ['pa1', false, true, 'verified', null],
      ['pa2', true, true, 'verified', null],
      ['pa3', false, true, 'verified', null],
      ['pa4', false, false, 'failed', 'Bank account could not be verified'],
    ]);
  });
});
