/**
 * The port that numbers conversions (SPEC: a conversion's id is a positive integer). The number
 * is drawn once, when the conversion is requested, and recorded in `CryptoConversionRequested`;
 * read models copy it from there and never make one up. Numbers are unique, not gapless.
 */
export interface ConversionNumbers {
  next(): Promise<number>;
}

/** True for a conversion number: a positive safe integer. */
export const isConversionNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
