import { createHash } from 'node:crypto';
import type { CryptoType } from '../contracts/crypto';

/** Exchange rates in integer 1e-4 USD per coin (10000n = 1.0000). */
export type RateTable = Record<CryptoType, bigint>;

/** The rates port: where USD prices of the supported stablecoins come from. */
export interface RatesProvider {
  current(now: Date): Promise<RateTable>;
}

/** Rates move in 30-second windows (SPEC §9: the client refreshes every 30 s). */
export const RATE_WINDOW_MS = 30_000;
/** Largest deviation from the peg, in 1e-4 units: ±0.0005. */
export const PEG_MAX_DEVIATION = 5;

/**
 * The default provider, needing no network: USDC and USDT are pegged to 1.0000 USD and move
 * by at most ±0.0005 around it. The deviation is a hash of the coin and the 30-second window,
 * so every process (and every test) sees the same rate at the same moment, and a window's rate
 * never changes once quoted.
 */
export class PegRatesProvider implements RatesProvider {
  async current(now: Date): Promise<RateTable> {
    return { USDC: pegRate('USDC', now), USDT: pegRate('USDT', now) };
  }
}

export function pegRate(cryptoType: CryptoType, now: Date): bigint {
  const window = Math.floor(now.getTime() / RATE_WINDOW_MS);
  const byte = createHash('sha256').update(`${cryptoType}:${window}`).digest()[0];
  const deviation = (byte % (2 * PEG_MAX_DEVIATION + 1)) - PEG_MAX_DEVIATION;
  return 10_000n + BigInt(deviation);
}

/** Fixed rates, for tests that need exact figures. */
export class FixedRatesProvider implements RatesProvider {
  constructor(private readonly rates: RateTable) {}
  async current(): Promise<RateTable> {
    return this.rates;
  }
}
