import fc from 'fast-check';
import { formatCryptoUnits, parseCryptoUnits, calculateConversionSchema } from '../contracts/crypto';
import { formatCents, parseCents } from '../contracts/money';
import { computeConversion, grossCentsOf } from './amounts';

const cryptoUnits = fc.bigInt({ min: 1n, max: 10n ** 12n * 10n ** 8n - 1n });
const rateUnits = fc.bigInt({ min: 9_000n, max: 11_000n });

describe('conversion arithmetic', () => {
  it('fee + net == gross exactly, fee is 3% of gross to the cent, nothing is negative', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n * 10n ** 8n }), rateUnits, (units, rate) => {
        const f = computeConversion('USDC', units, rate);
        expect(f.feeCents + f.netCents).toBe(f.grossCents);
        expect(f.feeCents).toBeGreaterThanOrEqual(0);
        expect(f.netCents).toBeGreaterThanOrEqual(0);
        expect(Math.abs(f.feeCents * 100 - f.grossCents * 3)).toBeLessThanOrEqual(50);
        expect(f.isValidMinimum).toBe(f.netCents >= 1000);
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds gross half-up to the cent', () => {
    expect(grossCentsOf(2_000_000_000n, 10_000n)).toBe(2000n); // 20 × 1.0000
    expect(grossCentsOf(1_000_500n, 10_000n)).toBe(1n); // 0.010005 -> 0.01
    expect(grossCentsOf(1_500_000n, 10_000n)).toBe(2n); // 0.015 -> 0.02
    const twenty = computeConversion('USDC', 2_000_000_000n, 10_000n);
    expect([twenty.grossCents, twenty.feeCents, twenty.netCents]).toEqual([2000, 60, 1940]);
  });

  it('the minimum is $10.00 net', () => {
    // 10.31 × 1.0000 = 10.31 gross, fee 0.31, net 10.00
    expect(computeConversion('USDT', 1_031_000_000n, 10_000n).isValidMinimum).toBe(true);
    expect(computeConversion('USDT', 1_030_000_000n, 10_000n).isValidMinimum).toBe(false);
  });
});

describe('8-decimal crypto amounts', () => {
  const decimalText = fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }),
      fc.bigInt({ min: 0n, max: 10n ** 8n - 1n }),
      fc.integer({ min: 0, max: 8 }),
    )
    .map(([whole, fraction, places]) => {
      const digits = fraction.toString().padStart(8, '0').slice(0, places);
      return places ? `${whole}.${digits}` : `${whole}`;
    });

  it('parse and format round-trip exactly', () => {
    fc.assert(
      fc.property(cryptoUnits, (units) => {
        expect(parseCryptoUnits(formatCryptoUnits(units))).toBe(units);
      }),
    );
    fc.assert(
      fc.property(decimalText, (text) => {
        const units = parseCryptoUnits(text)!;
        expect(Number(formatCryptoUnits(units))).toBe(Number(text));
      }),
    );
  });

  it('sums of amounts are exact (no float drift)', () => {
    fc.assert(
      fc.property(fc.array(decimalText, { minLength: 1, maxLength: 30 }), (texts) => {
        const total = texts.map((t) => parseCryptoUnits(t)!).reduce((a, b) => a + b, 0n);
        // the sum of the parts' digits, done by hand on strings scaled by 1e8
        const scaled = texts.map((t) => {
          const [w, f = ''] = t.split('.');
          return BigInt(w + f.padEnd(8, '0'));
        });
        expect(total).toBe(scaled.reduce((a, b) => a + b, 0n));
        expect(BigInt(formatCryptoUnits(total).replace('.', ''))).toBe(total);
      }),
    );
  });

  it('refuses more than 8 decimals and amounts at or below 0 with the SPEC messages', () => {
    const message = (cryptoAmount: unknown) => {
      const result = calculateConversionSchema.safeParse({ cryptoAmount, cryptoType: 'USDC' });
      return result.success ? result.data.cryptoAmount : result.error.issues[0].message;
    };
    expect(message('1.123456789')).toBe('Invalid crypto amount format');
    expect(message('0')).toBe('Please enter a valid crypto amount');
    expect(message('-3')).toBe('Please enter a valid crypto amount');
    expect(message('abc')).toBe('Please enter a valid crypto amount');
    expect(message('')).toBe('Please enter a valid crypto amount');
    expect(message(0.00000001)).toBe('0.00000001');
    expect(message(20)).toBe('20.00000000');
    expect(message('12.5')).toBe('12.50000000');
    expect(message(0.000000001)).toBe('Invalid crypto amount format');
  });

  it('cents format and parse round-trip', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => expect(parseCents(formatCents(cents))).toBe(cents)),
    );
  });
});
