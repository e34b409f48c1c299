import type { Knex } from 'knex';
import { sampleMoneyHistory } from '../domain/ledger/testing/sample-history';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { ledgerProjector } from './ledger';
import { replayTwice } from './engine/testing/replay-twice';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

describe('ledger read model', () => {
  it('is idempotent, and every transaction balances', async () => {
    const { once, twice } = await replayTwice(db, ledgerProjector, sampleMoneyHistory());
    expect(twice).toEqual(once);
    const unbalanced = await db.raw(
      `SELECT transaction_id FROM replay_once_ledger.ledger_entries GROUP BY transaction_id HAVING sum(debit_cents) <> sum(credit_cents)`,
    );
    expect(unbalanced.rows).toEqual([]);
    const kinds = await db.withSchema('replay_once_ledger').table('ledger_transactions').distinct('kind').pluck('kind');
    expect(kinds.sort()).toEqual([
      'conversion',
      'conversion_credit',
      'earnings',
      'earnings_release',
      'earnings_reversal',
      'message_unlock',
      'payout_completion',
      'payout_request',
      'payout_return',
      'refund',
      'site_plan_charge',
      'tier_charge',
    ]);
  });
});
