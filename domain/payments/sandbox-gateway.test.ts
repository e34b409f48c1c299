import { GatewayTimeoutError, PaymentDeclinedError } from './gateway';
import { FIRST_CHARGE_KEY_PREFIX, SandboxGateway } from './sandbox-gateway';

const gateway = new SandboxGateway();
const customer = (paymentToken: string, idempotencyKey = 'k1') =>
  gateway.createCustomer({ email: 'a@b.c', name: 'A B', paymentToken, idempotencyKey });
const charge = (customerId: string, idempotencyKey: string) =>
  gateway.charge({ customerId, amountCents: 199, currency: 'USD', description: 'Lively membership', idempotencyKey });

describe('sandbox gateway', () => {
  it('accepts development tokens and charges the card on file', async () => {
    const card = await customer('dev_tok_abc123');
    expect(card).toMatchObject({ cardLast4: '4242', cardBrand: 'Visa' });
    const result = await charge(card.customerId, 'c1');
    expect(result).toMatchObject({ status: 'succeeded', cardLast4: '4242' });
  });

  it('takes the last 4 from a suffix ending in _dddd', async () => {
    expect((await customer('dev_tok_xyz_1881')).cardLast4).toBe('1881');
  });

  it('refuses tokens without the development prefix as invalid', async () => {
    await expect(customer('tok_visa')).rejects.toThrow(new PaymentDeclinedError('Invalid payment token'));
    await expect(customer('dev_tok_')).rejects.toThrow('Invalid payment token');
  });

  it('declines dev_tok_decline… when the card is saved', async () => {
    await expect(customer('dev_tok_decline_1')).rejects.toThrow(new PaymentDeclinedError('Your card was declined.'));
  });

  it('declines every charge of dev_tok_insufficient… with Insufficient funds', async () => {
    const card = await customer('dev_tok_insufficient_funds');
    expect(await charge(card.customerId, `${FIRST_CHARGE_KEY_PREFIX}u1`)).toMatchObject({
      status: 'declined',
      failureReason: 'Insufficient funds',
    });
  });

  it('lets the first charge of dev_tok_renewal_fails… succeed and declines later ones', async () => {
    const card = await customer('dev_tok_renewal_fails_9');
    expect(await charge(card.customerId, `${FIRST_CHARGE_KEY_PREFIX}u1`)).toMatchObject({ status: 'succeeded' });
    expect(await charge(card.customerId, 'renewal:u1:2026-12')).toMatchObject({
      status: 'declined',
      failureReason: 'Your card was declined.',
    });
  });

  it('is idempotent on the key and survives a restart (a new instance answers the same)', async () => {
    const card = await customer('dev_tok_same', 'key');
    const again = await new SandboxGateway().createCustomer({
      email: 'a@b.c',
      name: 'A B',
      paymentToken: 'dev_tok_same',
      idempotencyKey: 'key',
    });
    expect(again).toEqual(card);
    const first = await charge(card.customerId, 'c9');
    expect(
      await new SandboxGateway().charge({
        customerId: card.customerId,
        amountCents: 199,
        currency: 'USD',
        description: 'x',
        idempotencyKey: 'c9',
      }),
    ).toMatchObject({
      status: 'succeeded',
      transactionId: first.transactionId,
    });
    expect((await charge(card.customerId, 'c10')).transactionId).not.toBe(first.transactionId);
  });

  it('declines charges to unknown customers and refunds anything', async () => {
    expect(await charge('cus_nope', 'x')).toMatchObject({ status: 'declined', failureReason: 'No such customer' });
    expect(await gateway.refund({ transactionId: 'ch_1', amountCents: 199, idempotencyKey: 'r1' })).toMatchObject({
      status: 'succeeded',
    });
  });
});

describe('sandbox gateway journal', () => {
  it('counts each charge once per key, refunds once per key, and never more than was charged', async () => {
    const journal = new SandboxGateway();
    const card = await journal.createCustomer({
      email: 'a@b.c',
      name: 'A B',
      paymentToken: 'dev_tok_journal',
      idempotencyKey: 'j1',
    });
    const request = {
      customerId: card.customerId,
      amountCents: 199,
      currency: 'USD' as const,
      description: 'x',
      idempotencyKey: 'signup:j1',
    };
    const first = await journal.charge(request);
    await journal.charge(request);
    await journal.charge({ ...request, idempotencyKey: 'other' });
    expect(journal.netChargedCents()).toBe(398);
    expect(journal.netChargedCents(card.customerId)).toBe(398);
    const refund = { transactionId: first.transactionId, amountCents: 199, idempotencyKey: 'refund:j1' };
    expect(await journal.refund(refund)).toMatchObject({ status: 'succeeded' });
    expect(await journal.refund(refund)).toMatchObject({ status: 'succeeded' });
    expect(journal.netChargedCents()).toBe(199);
    expect(await journal.refund({ ...refund, idempotencyKey: 'refund:again' })).toMatchObject({
      status: 'declined',
      failureReason: 'Refund exceeds the amount left on the charge',
    });
    expect(journal.standingCharges()).toEqual([expect.objectContaining({ amountCents: 199, refundedCents: 0 })]);
  });
});

describe('sandbox gateway disputes and faults', () => {
  it('disputes every charge of dev_tok_dispute… after the delay, for the whole charge with the fee', async () => {
    let now = new Date('2026-03-01T00:00:00.000Z');
    const sandbox = new SandboxGateway({ disputeDelayMs: 5_000, clock: () => now });
    const card = await sandbox.createCustomer({
      email: 'a@b.c',
      name: 'A',
      paymentToken: 'dev_tok_dispute_1',
      idempotencyKey: 'd',
    });
    const charged = await sandbox.charge({
      customerId: card.customerId,
      amountCents: 999,
      currency: 'USD',
      description: 'x',
      idempotencyKey: 'd1',
    });
    expect(charged).toMatchObject({ status: 'succeeded' });
    expect(await sandbox.disputes()).toEqual([]);
    now = new Date(now.getTime() + 5_000);
    expect(await sandbox.disputes()).toEqual([
      expect.objectContaining({ transactionId: charged.transactionId, amountCents: 999, feeCents: 1500 }),
    ]);
    const other = await sandbox.createCustomer({
      email: 'a@b.c',
      name: 'A',
      paymentToken: 'dev_tok_fine',
      idempotencyKey: 'e',
    });
    await sandbox.charge({
      customerId: other.customerId,
      amountCents: 100,
      currency: 'USD',
      description: 'x',
      idempotencyKey: 'e1',
    });
    expect(await sandbox.disputes()).toHaveLength(1);
  });

  it('times out after refunding when told to, and the retry with the same key moves no money', async () => {
    const sandbox = new SandboxGateway();
    const card = await sandbox.createCustomer({
      email: 'a@b.c',
      name: 'A',
      paymentToken: 'dev_tok_t',
      idempotencyKey: 't',
    });
    const charged = await sandbox.charge({
      customerId: card.customerId,
      amountCents: 500,
      currency: 'USD',
      description: 'x',
      idempotencyKey: 't1',
    });
    const refund = { transactionId: charged.transactionId, amountCents: 200, idempotencyKey: 'refund:t1:1' };
    sandbox.timeoutAfterRefund(2);
    await expect(sandbox.refund(refund)).rejects.toThrow(GatewayTimeoutError);
    await expect(sandbox.refund(refund)).rejects.toThrow(GatewayTimeoutError);
    expect(await sandbox.refund(refund)).toMatchObject({ status: 'succeeded' });
    expect(sandbox.netChargedCents()).toBe(300);
  });
});
