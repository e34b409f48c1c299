import { deciderSpec } from '../shared/testing/decider-spec';
import { balancesAt, creatorAccountDecider, type CreatorAccountCommand } from './decider';
import type { CreatorAccountEvent } from './events';
import { formatCents, parseCents, UNSIGNED_CENTS } from '../contracts/money';
import { payoutFee, splitEarnings } from './money';
import fc from 'fast-check';

const spec = deciderSpec(creatorAccountDecider);
const { fold } = spec;
const given = (events: CreatorAccountEvent[], command: CreatorAccountCommand) =>
  spec.given(events).when(command).events;
/** The DomainError the command is refused with. */
const refusal = (events: CreatorAccountEvent[], command: CreatorAccountCommand) =>
  spec.given(events).when(command).thenThrows();
const day = 24 * 3600 * 1000;
const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (days: number) => new Date(t0.getTime() + days * day);

const credit = (reference: string, grossCents: number, occurredAt = t0): CreatorAccountCommand => ({
  type: 'CreditEarnings',
  creatorId: 'c1',
  source: 'subscription',
  reference,
  payerId: 'm1',
  grossCents,
  occurredAt,
});
const credited = (reference: string, grossCents: number, occurredAt = t0) =>
  given([], credit(reference, grossCents, occurredAt))[0];
const account = (id = 'pa1', isVerified = true): CreatorAccountEvent => ({
  type: 'PaymentAccountAdded',
  data: {
    creatorId: 'c1',
    paymentAccountId: id,
    type: 'bank_account',
    accountHolderName: 'A B',
    bankAccountLast4: '1234',
    routingNumber: '110000000',
    stripeAccountId: null,
    isDefault: true,
    isVerified,
    addedAt: t0.toISOString(),
  },
});
const request = (amountCents: number, now = at(8), paymentAccountId = 'pa1'): CreatorAccountCommand => ({
  type: 'RequestPayout',
  creatorId: 'c1',
  payoutId: 'p1',
  paymentAccountId,
  amountCents,
  now,
});

describe('creator account decider', () => {
  test('credits 90% to the creator and 10% to the platform, available after 7 days', () => {
    expect(given([], credit('sale-1', 1999))).toEqual([
      {
        type: 'EarningsCredited',
        data: {
          creatorId: 'c1',
          source: 'subscription',
          reference: 'sale-1',
          payerId: 'm1',
          grossCents: 1999,
          creatorShareCents: 1799,
          platformFeeCents: 200,
          occurredAt: t0.toISOString(),
          availableAt: at(7).toISOString(),
        },
      },
    ]);
  });

  test('the shares always sum to the gross amount in integer cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_00 }), (gross) => {
        const { creatorShareCents, platformFeeCents } = splitEarnings(gross);
        return (
          Number.isInteger(creatorShareCents) &&
          Number.isInteger(platformFeeCents) &&
          creatorShareCents + platformFeeCents === gross &&
          platformFeeCents >= 0
        );
      }),
    );
  });

  test('crediting the same reference twice writes nothing the second time', () => {
    expect(given([credited('sale-1', 1000)], credit('sale-1', 1000))).toEqual([]);
  });

  test('refuses non-positive or fractional amounts', () => {
    expect(refusal([], credit('x', 0)).kind).toBe('validation');
    expect(refusal([], credit('x', 1.5)).kind).toBe('validation');
  });

  test('earnings are pending during the hold and available after it', () => {
    const state = fold([credited('a', 1000), credited('b', 2000, at(3))]);
    expect(balancesAt(state, at(1))).toEqual({
      availableCents: 0,
      pendingCents: 2700,
      totalEarningsCents: 2700,
      nextAvailableAt: at(7).toISOString(),
    });
    expect(balancesAt(state, at(7))).toEqual({
      availableCents: 900,
      pendingCents: 1800,
      totalEarningsCents: 2700,
      nextAvailableAt: at(10).toISOString(),
    });
    expect(balancesAt(state, at(11))).toEqual({
      availableCents: 2700,
      pendingCents: 0,
      totalEarningsCents: 2700,
      nextAvailableAt: null,
    });
  });

  test('a payout of the whole available balance is requested with its processing fee', () => {
    expect(given([credited('a', 1000), account()], request(900))).toEqual([
      {
        type: 'PayoutRequested',
        data: {
          creatorId: 'c1',
          payoutId: 'p1',
          paymentAccountId: 'pa1',
          amountCents: 900,
          processingFeeCents: 9,
          netAmountCents: 891,
          currency: 'USD',
          requestedAt: at(8).toISOString(),
        },
      },
    ]);
  });

  test('refuses a partial amount, a zero balance, an unknown account and an unverified one', () => {
    const history = [credited('a', 1000), account()];
    expect(refusal(history, request(500)).kind).toBe('validation');
    expect(refusal(history, request(900, at(2))).message).toBe('No available balance to withdraw');
    expect(refusal(history, request(900, at(8), 'someone-elses')).kind).toBe('forbidden');
    expect(refusal([credited('a', 1000), account('pa1', false)], request(900)).message).toBe(
      'This payment account is pending verification',
    );
  });

  test('an account pending verification is verified or refused once; only a verified one receives payouts', () => {
    const pending = [credited('a', 1000), account('pa1', false)];
    const verify = (
      outcome: { status: 'verified' } | { status: 'failed'; failureReason: string },
    ): CreatorAccountCommand => ({
      type: 'RecordPaymentAccountVerification',
      creatorId: 'c1',
      paymentAccountId: 'pa1',
      outcome,
      now: at(1),
    });
    const verified = given(pending, verify({ status: 'verified' }));
    expect(verified).toEqual([
      {
        type: 'PaymentAccountVerified',
        data: { creatorId: 'c1', paymentAccountId: 'pa1', verifiedAt: at(1).toISOString() },
      },
    ]);
    expect(given([...pending, ...verified], verify({ status: 'verified' }))).toEqual([]);
    expect(given([...pending, ...verified], verify({ status: 'failed', failureReason: 'x' }))).toEqual([]);
    expect(given([...pending, ...verified], request(900))[0].type).toBe('PayoutRequested');

    const failed = given(pending, verify({ status: 'failed', failureReason: 'Bank account could not be verified' }));
    expect(failed).toEqual([
      {
        type: 'PaymentAccountVerificationFailed',
        data: {
          creatorId: 'c1',
          paymentAccountId: 'pa1',
          reason: 'Bank account could not be verified',
          failedAt: at(1).toISOString(),
        },
      },
    ]);
    expect(given([...pending, ...failed], verify({ status: 'verified' }))).toEqual([]);
    expect(refusal([...pending, ...failed], request(900)).message).toBe('This payment account could not be verified');
    expect(
      refusal(pending, { ...verify({ status: 'verified' }), paymentAccountId: 'nope' } as CreatorAccountCommand).kind,
    ).toBe('not_found');
  });

  test('a second payout finds nothing available', () => {
    const history = [credited('a', 1000), account(), ...given([credited('a', 1000), account()], request(900))];
    expect(balancesAt(fold(history), at(8)).availableCents).toBe(0);
    expect(refusal(history, { ...request(900), payoutId: 'p2' } as CreatorAccountCommand).message).toBe(
      'No available balance to withdraw',
    );
  });

  test('payout states: pending -> processing -> completed; failed and cancelled return the amount', () => {
    const requested = [credited('a', 1000), account(), ...given([credited('a', 1000), account()], request(900))];
    const staff = { creatorId: 'c1', payoutId: 'p1', staffId: 'admin', now: at(9) };
    expect(refusal(requested, { type: 'CompletePayout', ...staff }).kind).toBe('conflict');
    const processing = [
      ...requested,
      ...given(requested, { type: 'StartPayoutProcessing', gatewayTransactionId: 'tr_1', ...staff }),
    ];
    expect(fold(processing).payouts.p1.status).toBe('processing');
    const completed = [...processing, ...given(processing, { type: 'CompletePayout', ...staff })];
    expect(completed[completed.length - 1]).toMatchObject({
      type: 'PayoutCompleted',
      data: { gatewayTransactionId: 'tr_1', staffId: 'admin' },
    });
    expect(balancesAt(fold(completed), at(9)).availableCents).toBe(0);
    expect(refusal(completed, { type: 'CancelPayout', reason: 'x', ...staff }).kind).toBe('conflict');

    const failed = [...processing, ...given(processing, { type: 'FailPayout', reason: 'bank rejected', ...staff })];
    expect(balancesAt(fold(failed), at(9)).availableCents).toBe(900);
    const cancelled = [...requested, ...given(requested, { type: 'CancelPayout', reason: 'creator asked', ...staff })];
    expect(balancesAt(fold(cancelled), at(9)).availableCents).toBe(900);
    expect(refusal(requested, { type: 'FailPayout', reason: 'x', ...staff }).kind).toBe('conflict');
    expect(refusal(requested, { type: 'CompletePayout', ...staff, payoutId: 'nope' }).kind).toBe('not_found');
  });

  test('the first payment account is the default; a later default replaces it', () => {
    const add = (paymentAccountId: string, makeDefault: boolean): CreatorAccountCommand => ({
      type: 'AddPaymentAccount',
      creatorId: 'c1',
      paymentAccountId,
      accountType: 'stripe',
      accountHolderName: 'A',
      bankAccountLast4: null,
      routingNumber: null,
      stripeAccountId: 'acct_1',
      makeDefault,
      isVerified: true,
      now: t0,
    });
    const first = given([], add('pa1', false));
    expect(first[0].data).toMatchObject({ isDefault: true });
    const second = given(first, add('pa2', false));
    expect(second[0].data).toMatchObject({ isDefault: false });
    const third = given([...first, ...second], add('pa3', true));
    const state = fold([...first, ...second, ...third]);
    expect(
      Object.values(state.paymentAccounts)
        .filter((a) => a.isDefault)
        .map((a) => a.paymentAccountId),
    ).toEqual(['pa3']);
  });

  test('reversed earnings leave the balances', () => {
    const history = [credited('a', 1000), credited('b', 1000)];
    const reversed = [
      ...history,
      ...given(history, { type: 'ReverseEarnings', creatorId: 'c1', reference: 'a', reason: 'refund', now: at(1) }),
    ];
    expect(balancesAt(fold(reversed), at(8))).toMatchObject({ availableCents: 900, totalEarningsCents: 900 });
    expect(
      given(reversed, { type: 'ReverseEarnings', creatorId: 'c1', reference: 'a', reason: 'refund', now: at(1) }),
    ).toEqual([]);
  });
});

describe('money helpers', () => {
  test('processing fee is 1% rounded half up, net is the rest', () => {
    expect(payoutFee(900)).toEqual({ processingFeeCents: 9, netAmountCents: 891 });
    expect(payoutFee(50)).toEqual({ processingFeeCents: 1, netAmountCents: 49 });
    expect(payoutFee(49)).toEqual({ processingFeeCents: 0, netAmountCents: 49 });
  });
  test('cents format and parse', () => {
    expect(formatCents(123456)).toBe('1234.56');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-5)).toBe('-0.05');
    expect(parseCents('12.3', UNSIGNED_CENTS)).toBe(1230);
    expect(parseCents('12', UNSIGNED_CENTS)).toBe(1200);
    expect(parseCents('12.345', UNSIGNED_CENTS)).toBeNull();
    expect(parseCents('-1', UNSIGNED_CENTS)).toBeNull();
    expect(parseCents('1e3', UNSIGNED_CENTS)).toBeNull();
  });
});
