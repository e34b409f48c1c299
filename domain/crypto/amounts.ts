import {
  MINIMUM_CONVERSION_NET_CENTS,
  SERVICE_FEE_BASIS_POINTS,
  formatCryptoUnits,
  formatRate,
  type ConversionPreview,
  type CryptoType,
} from '../contracts/crypto';
import { formatCents } from '../contracts/money';

/**
 * Conversion arithmetic in integers: crypto in 1e-8 units, rates in 1e-4 units, USD in
 * cents. Gross is rounded half-up to the cent once; the fee is rounded half-up from gross
 * and net is gross minus fee, so fee + net == gross exactly.
 */
export interface ConversionFigures {
  cryptoType: CryptoType;
  cryptoUnits: bigint;
  rateUnits: bigint;
  grossCents: number;
  feeCents: number;
  netCents: number;
  feeBasisPoints: number;
  isValidMinimum: boolean;
}

/** Division of non-negative bigints rounded half-up. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** 1e-8 units × 1e-4 units = 1e-12 USD; a cent is 1e10 of those. */
export function grossCentsOf(cryptoUnits: bigint, rateUnits: bigint): bigint {
  return divideHalfUp(cryptoUnits * rateUnits, 10_000_000_000n);
}

export function feeCentsOf(grossCents: bigint, basisPoints = SERVICE_FEE_BASIS_POINTS): bigint {
  return divideHalfUp(grossCents * BigInt(basisPoints), 10_000n);
}

export function computeConversion(
  cryptoType: CryptoType,
  cryptoUnits: bigint,
  rateUnits: bigint,
  basisPoints = SERVICE_FEE_BASIS_POINTS,
): ConversionFigures {
  const gross = grossCentsOf(cryptoUnits, rateUnits);
  if (gross > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount too large');
  const fee = feeCentsOf(gross, basisPoints);
  const net = gross - fee;
  return {
    cryptoType,
    cryptoUnits,
    rateUnits,
    grossCents: Number(gross),
    feeCents: Number(fee),
    netCents: Number(net),
    feeBasisPoints: basisPoints,
    isValidMinimum: net >= BigInt(MINIMUM_CONVERSION_NET_CENTS),
  };
}

export const formatPercent = (basisPoints: number) => formatCents(basisPoints);

export function toPreview(figures: ConversionFigures): ConversionPreview {
  return {
    cryptoAmount: formatCryptoUnits(figures.cryptoUnits),
    cryptoType: figures.cryptoType,
    exchangeRate: formatRate(figures.rateUnits),
    grossUsdAmount: formatCents(figures.grossCents),
    serviceFeeAmount: formatCents(figures.feeCents),
    serviceFeePercent: formatPercent(figures.feeBasisPoints),
    netUsdAmount: formatCents(figures.netCents),
    isValidMinimum: figures.isValidMinimum,
  };
}
