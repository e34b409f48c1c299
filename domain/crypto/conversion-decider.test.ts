import { conversionDecider, type ConversionCommand } from './conversion-decider';
import { DomainError } from '../shared/errors';

const request = (conversionNumber: number): ConversionCommand => ({
  type: 'RequestConversion', transactionId: 't1', conversionId: 'c1', conversionNumber, userId: 'u1', walletId: null, walletAddress: '0xabc', cryptoType: 'USDC',
  cryptoAmount: '20.00000000', exchangeRate: '1.0000', grossCents: 2000, feeCents: 60, feeBasisPoints: 300, netCents: 1940, requestedAt: '2026-03-01T10:00:00.000Z',
});

describe('conversion decider', () => {
  it('records the conversion number drawn for the request in the event', () => {
    const [event] = conversionDecider.decide(request(17), conversionDecider.initialState);
    expect(event).toMatchObject({ type: 'CryptoConversionRequested', data: { transactionId: 't1', conversionNumber: 17 } });
    const state = conversionDecider.evolve(conversionDecider.initialState, event);
    expect(conversionDecider.decide(request(18), state)).toEqual([]); // a retried request writes nothing new
  });

  it('refuses a request without a positive integer number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      expect(() => conversionDecider.decide(request(bad), conversionDecider.initialState)).toThrow(DomainError);
    }
  });
});
