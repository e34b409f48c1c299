import { deciderSpec } from '../shared/testing/decider-spec';
import { walletDecider, type WalletCommand } from './decider';
import type { WalletEvent } from './events';

const spec = deciderSpec(walletDecider);
const given = (...events: WalletEvent[]) => spec.fold(events);
const credit = (amountCents: number, reference: string): WalletEvent => ({
  type: 'WalletCredited',
  data: { userId: 'u1', amountCents, reason: 'test', reference, balanceCents: 0 },
});
const command = (type: WalletCommand['type'], amountCents: number, reference: string): WalletCommand => ({
  type,
  userId: 'u1',
  amountCents,
  reason: 'test',
  reference,
});

describe('wallet decider', () => {
  it('credits and reports the new balance', () => {
    spec
      .given()
      .when(command('CreditBalance', 500, 'c1'))
      .then([
        {
          type: 'WalletCredited',
          data: { userId: 'u1', amountCents: 500, reason: 'test', reference: 'c1', balanceCents: 500 },
        },
      ]);
  });

  it('never applies the same reference twice', () => {
    const state = given(credit(500, 'c1'));
    spec
      .on(state)
      .when(command('CreditBalance', 500, 'c1'))
      .thenNothing();
    const spent = spec.on(state).when(command('SpendBalance', 200, 's1')).events;
    const after = spent.reduce(walletDecider.evolve, state);
    expect(after.balanceCents).toBe(300);
    spec
      .on(after)
      .when(command('SpendBalance', 200, 's1'))
      .thenNothing();
  });

  it('refuses to spend more than the balance', () => {
    const state = given(credit(500, 'c1'));
    spec
      .on(state)
      .when(command('SpendBalance', 501, 's1'))
      .thenThrows({ kind: 'unprocessable', message: 'Insufficient balance', details: { balanceCents: 500 } });
  });

  it('refuses non-integer or non-positive amounts', () => {
    for (const amount of [0, -1, 1.5, Number.NaN]) {
      spec
        .given()
        .when(command('CreditBalance', amount, 'x'))
        .thenThrows();
    }
  });
});
