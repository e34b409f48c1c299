import { cardExpiryProblem, manualCardSchema } from './accounts';

/** 24 November 2026, local time: the clock the checks are given. */
const NOW = new Date(2026, 10, 24, 12, 0, 0);

const card = (expiry: string) => ({ cardNumber: '4242 4242 4242 4242', expiry, cvv: '123' });
const messages = (expiry: string) =>
  manualCardSchema(NOW)
    .safeParse(card(expiry))
    .error?.issues.map((issue) => issue.message) ?? [];

describe('manual card expiry (SPEC §5)', () => {
  it('refuses a card whose month has passed', () => {
    expect(messages('01/20')).toEqual(['Your card has expired']);
    expect(messages('10/26')).toEqual(['Your card has expired']);
    expect(messages('12/25')).toEqual(['Your card has expired']);
  });

  it('accepts the current month and later ones', () => {
    expect(messages('11/26')).toEqual([]);
    expect(messages('12/26')).toEqual([]);
    expect(messages('01/27')).toEqual([]);
    expect(messages('01/99')).toEqual([]);
  });

  it('keeps the MM/YY format message for a bad format and a month outside 01-12', () => {
    for (const expiry of ['1', '1/27', '01-27', '0127', '00/27', '13/27', 'ab/cd'])
      expect(cardExpiryProblem(expiry, NOW)).toBe('Please enter expiration in MM/YY format');
  });

  it('depends on the clock it is given, not on the machine clock', () => {
    expect(cardExpiryProblem('01/20', new Date(2019, 11, 31))).toBeNull();
    expect(cardExpiryProblem('01/20', new Date(2020, 0, 31, 23, 59))).toBeNull();
    expect(cardExpiryProblem('01/20', new Date(2020, 1, 1))).toBe('Your card has expired');
  });
});
