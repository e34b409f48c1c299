import { deciderSpec } from '../shared/testing/decider-spec';
import { accountDecider } from './decider';
import type { AccountEvent } from './events';
import {
  CODE_ALREADY_USED,
  SETUP_FIRST,
  TWO_FACTOR_OFF,
  twoFactorDecider,
  type TwoFactorCommand,
} from './two-factor-decider';

const spec = deciderSpec(twoFactorDecider);
const now = new Date('2026-03-01T12:00:00.000Z');
const at = now.toISOString();
const userId = 'u1';
const registered: AccountEvent = {
  type: 'UserRegistered',
  data: {
    userId,
    email: 'ann@example.com',
    firstName: 'Ann',
    lastName: 'Lee',
    passwordHash: 'h1',
    gatewayCustomerId: 'cus_1',
    cardLast4: '4242',
    registeredAt: at,
  },
};
const setup = (sealedSecret: string): AccountEvent => ({
  type: 'TwoFactorSetupStarted',
  data: { userId, sealedSecret, at },
});
const hashes = ['h0', 'h1', 'h2'];
const enabled: AccountEvent = { type: 'TwoFactorEnabled', data: { userId, recoveryCodeHashes: hashes, step: 100, at } };
const signIn = (proof: Extract<TwoFactorCommand, { type: 'CompleteSignIn' }>['proof']): TwoFactorCommand => ({
  type: 'CompleteSignIn',
  sealedSecret: 's1',
  proof,
  now,
});

describe('two-factor decider', () => {
  it('enables the pending secret with a code of it, and only that secret', () => {
    const enable = (sealedSecret: string, step: number | null): TwoFactorCommand => ({
      type: 'EnableTwoFactor',
      sealedSecret,
      step,
      recoveryCodeHashes: hashes,
      now,
    });
    spec.given([registered]).when(enable('s1', 100)).thenThrows(SETUP_FIRST);
    spec
      .given([registered, setup('s1')])
      .when(enable('s1', null))
      .thenThrows('Invalid authentication code');
    spec
      .given([registered, setup('s1'), setup('s2')])
      .when(enable('s1', 100))
      .thenThrows({ kind: 'conflict' });
    spec
      .given([registered, setup('s1')])
      .when(enable('s1', 100))
      .then([enabled]);
    const state = spec.fold([registered, setup('s1'), enabled]);
    expect(state).toMatchObject({ enabled: true, secret: 's1', pendingSecret: null, lastStep: 100 });
    spec
      .given([registered, setup('s1'), enabled])
      .when({ type: 'StartTwoFactorSetup', sealedSecret: 's3', now })
      .thenThrows({ kind: 'conflict' });
  });

  it('signs in with a code once per time step (no replay) and with each recovery code once', () => {
    const on = [registered, setup('s1'), enabled];
    spec
      .given(on)
      .when(signIn({ kind: 'totp', step: 100 }))
      .thenThrows(CODE_ALREADY_USED); // the enabling code
    spec
      .given(on)
      .when(signIn({ kind: 'totp', step: 101 }))
      .then([
        { type: 'TwoFactorCodeUsed', data: { userId, step: 101, at } },
        { type: 'LoginSucceeded', data: { userId, at } },
      ]);
    const used: AccountEvent = { type: 'TwoFactorCodeUsed', data: { userId, step: 101, at } };
    spec
      .given([...on, used])
      .when(signIn({ kind: 'totp', step: 101 }))
      .thenThrows(CODE_ALREADY_USED);
    spec.given(on).when(signIn(null)).thenThrows('Invalid authentication code');
    const recovery: AccountEvent = { type: 'RecoveryCodeUsed', data: { userId, index: 1, at } };
    spec
      .given(on)
      .when(signIn({ kind: 'recovery', index: 1 }))
      .then([recovery, { type: 'LoginSucceeded', data: { userId, at } }]);
    spec
      .given([...on, recovery])
      .when(signIn({ kind: 'recovery', index: 1 }))
      .thenThrows('Invalid authentication code');
    expect(spec.fold([...on, recovery]).usedRecoveryCodes).toEqual([1]);
  });

  it('disables with a code, and refuses when off', () => {
    const on = [registered, setup('s1'), enabled];
    const disable: TwoFactorCommand = {
      type: 'DisableTwoFactor',
      sealedSecret: 's1',
      proof: { kind: 'recovery', index: 0 },
      now,
    };
    spec
      .given(on)
      .when(disable)
      .then([
        { type: 'RecoveryCodeUsed', data: { userId, index: 0, at } },
        { type: 'TwoFactorDisabled', data: { userId, at } },
      ]);
    spec.given([registered]).when(disable).thenThrows(TWO_FACTOR_OFF);
  });

  it('makes a right password ask for the second factor while two-factor is on', () => {
    const attempt = { type: 'RecordLoginAttempt' as const, passwordMatched: true, now };
    const account = deciderSpec(accountDecider);
    account
      .given([registered, setup('s1'), enabled])
      .when(attempt)
      .then([{ type: 'LoginPasswordVerified', data: { userId, at } }]);
    account
      .given([registered, setup('s1'), enabled, { type: 'TwoFactorDisabled', data: { userId, at } }])
      .when(attempt)
      .then([{ type: 'LoginSucceeded', data: { userId, at } }]);
  });
});
