import { DomainError } from '../shared/errors';
import { walletDecider, type WalletCommand } from './decider';
import type { WalletEvent } from './events';

const given = (...events: WalletEvent[]) => events.reduce(walletDecider.evolve, walletDecider.initialState);
const credit = (amountCents: number, reference: string): WalletEvent => ({
  type: 'WalletCredited',
  data: { userId: 'u1', amountCents, reason: 'test', reference, balanceCents: 0 },
});
const command = (type: WalletCommand['type'], amountCents: number, reference: string): WalletCommand => ({ type, userId: 'u1', amountCents, reason: 'test', reference });

describe('wallet decider', () => {
  it('credits and reports the new balance', () => {
    expect(walletDecider.decide(command('CreditBalance', 500, 'c1'), given())).toEqual([
      { type: 'WalletCredited', data: { userId: 'u1', amountCents: 500, reason: 'test', reference: 'c1', balanceCents: 500 } },
    ]);
  });

  it('never applies the same reference twice', () => {
    const state = given(credit(500, 'c1'));
    expect(walletDecider.decide(command('CreditBalance', 500, 'c1'), state)).toEqual([]);
    const spent = walletDecider.decide(command('SpendBalance', 200, 's1'), state);
    const after = spent.reduce(walletDecider.evolve, state);
    expect(after.balanceCents).toBe(300);
    expect(walletDecider.decide(command('SpendBalance', 200, 's1'), after)).toEqual([]);
  });

  it('refuses to spend more than the balance', () => {
    const state = given(credit(500, 'c1'));
    let error: unknown;
    try {
      walletDecider.decide(command('SpendBalance', 501, 's1'), state);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'unprocessable', message: 'Insufficient balance', details: { balanceCents: 500 } });
  });

  it('refuses non-integer or non-positive amounts', () => {
    for (const amount of [0, -1, 1.5, Number.NaN]) {
      expect(() => walletDecider.decide(command('CreditBalance', amount, 'x'), given())).toThrow(DomainError);
    }
  });
});
