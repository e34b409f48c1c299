import { conversionDecider, type ConversionCommand } from './conversion-decider';
import { deciderSpec } from '../shared/testing/decider-spec';

const request = (conversionNumber: number): ConversionCommand => ({
  type: 'RequestConversion',
  transactionId: 't1',
  conversionId: 'c1',
  conversionNumber,
  userId: 'u1',
  walletId: null,
  walletAddress: '0xabc',
  cryptoType: 'USDC',
  cryptoAmount: '20.00000000',
  exchangeRate: '1.0000',
  grossCents: 2000,
  feeCents: 60,
  feeBasisPoints: 300,
  netCents: 1940,
  requestedAt: '2026-03-01T10:00:00.000Z',
});

const spec = deciderSpec(conversionDecider);

describe('conversion decider', () => {
  it('records the conversion number drawn for the request in the event', () => {
    const [event] = spec.given().when(request(17)).events;
    expect(event).toMatchObject({
      type: 'CryptoConversionRequested',
      data: { transactionId: 't1', conversionNumber: 17 },
    });
    const state = spec.fold([event]);
    spec.on(state).when(request(18)).thenNothing(); // a retried request writes nothing new
  });

  it('refuses a request without a positive integer number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      spec.given().when(request(bad)).thenThrows();
    }
  });
});
