import {
  createSandboxPayoutGateway,
  SANDBOX_INSTANT_ROUTING,
  SANDBOX_REJECTED_ROUTING,
  SANDBOX_VERIFICATION_FAILS_ROUTING,
  SANDBOX_VERIFICATION_FAILURE,
} from './sandbox-gateway';

const registeredAt = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(registeredAt.getTime() + ms);
const bank = (routingNumber: string) => ({
  type: 'bank_account' as const,
  stripeAccountId: null,
  bankAccountLast4: '6789',
  routingNumber,
});
const register = (type: 'stripe' | 'bank_account', routingNumber: string | null) =>
  createSandboxPayoutGateway().registerDestination({
    creatorId: 'c1',
    type,
    accountHolderName: 'C',
    bankAccountLast4: null,
    routingNumber,
    idempotencyKey: 'pa1',
  });

describe('sandbox payout processor', () => {
  it('verifies stripe accounts and the documented instant test routing numbers at once', async () => {
    expect((await register('stripe', null)).verified).toBe(true);
    expect((await register('bank_account', SANDBOX_INSTANT_ROUTING)).verified).toBe(true);
    expect((await register('bank_account', SANDBOX_REJECTED_ROUTING)).verified).toBe(true);
    expect((await register('bank_account', '021000021')).verified).toBe(false);
    expect((await register('bank_account', SANDBOX_VERIFICATION_FAILS_ROUTING)).verified).toBe(false);
  });

  it('verifies other bank accounts after the delay, and refuses the documented failing one', async () => {
    const gateway = createSandboxPayoutGateway({ verifyAfterMs: 5000 });
    const ask = (routingNumber: string, ms: number) =>
      gateway.verificationStatus({ idempotencyKey: 'pa1', destination: bank(routingNumber), registeredAt }, later(ms));
    expect(await ask('999999999', 4999)).toEqual({ status: 'pending' });
    expect(await ask('999999999', 5000)).toEqual({ status: 'verified' });
    expect(await ask(SANDBOX_VERIFICATION_FAILS_ROUTING, 4999)).toEqual({ status: 'pending' });
    expect(await ask(SANDBOX_VERIFICATION_FAILS_ROUTING, 5000)).toEqual({
      status: 'failed',
      failureReason: SANDBOX_VERIFICATION_FAILURE,
    });
    expect(await ask(SANDBOX_INSTANT_ROUTING, 0)).toEqual({ status: 'verified' });
  });
});
