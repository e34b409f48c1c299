import fc from 'fast-check';
import { formatCents, parseCents, UNSIGNED_CENTS } from './money';
import { payoutRequestSchema } from './payouts';

/** The two parsers there were before the one with options, kept here as the oracle. */
const signedBefore = (text: string): number | null => {
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
};
const unsignedBefore = (text: string): number | null => {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
};

const amountLike = fc.oneof(
  fc.string(),
  fc.stringMatching(/^ ?-?\d{0,15}(\.\d{0,3})? ?$/),
  fc.constantFrom(
    '12.34',
    '-0.05',
    '1e3',
    '12.',
    '.5',
    '+1',
    '1 000',
    '9999999999999.99',
    '-9999999999999',
    '999999999999.99',
    '1000000000000',
  ),
);

describe('cents at the HTTP edge', () => {
  it('signed, up to 13 digits by default (member money, web)', () => {
    expect(parseCents('12.34')).toBe(1234);
    expect(parseCents('-0.05')).toBe(-5);
    expect(parseCents('9999999999999.99')).toBe(999999999999999);
    expect(parseCents('10000000000000')).toBeNull();
    expect(parseCents('12.345')).toBeNull();
    fc.assert(fc.property(amountLike, (text) => expect(parseCents(text)).toBe(signedBefore(text))));
  });

  it('unsigned, up to 12 digits for payouts', () => {
    expect(parseCents('-1', UNSIGNED_CENTS)).toBeNull();
    expect(parseCents('999999999999.99', UNSIGNED_CENTS)).toBe(99999999999999);
    expect(parseCents('1000000000000', UNSIGNED_CENTS)).toBeNull();
    fc.assert(fc.property(amountLike, (text) => expect(parseCents(text, UNSIGNED_CENTS)).toBe(unsignedBefore(text))));
    expect(payoutRequestSchema.safeParse({ paymentAccountId: 'a', amount: '-1' }).success).toBe(false);
    expect(payoutRequestSchema.safeParse({ paymentAccountId: 'a', amount: '1000000000000' }).success).toBe(false);
    expect(payoutRequestSchema.parse({ paymentAccountId: 'a', amount: ' 17.9 ' }).amount).toBe(1790);
    expect(payoutRequestSchema.parse({ paymentAccountId: 'a', amount: 17.99 }).amount).toBe(1799);
  });

  it('formats numbers, bigints and bigint columns alike', () => {
    expect([formatCents(123456), formatCents(-5n), formatCents('5'), formatCents(0)]).toEqual([
      '1234.56',
      '-0.05',
      '0.05',
      '0.00',
    ]);
  });
});
