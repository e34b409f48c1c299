import { deterministicId } from './ids';

describe('deterministicId', () => {
  // Stored in the log and read models: an id once derived must never change.
  it.each([
    [['notification', '0b6c1f4e-2d1a-4c7e-9a57-1f1d2b3c4d5e'], '1ac2fad4-fd6c-5425-8ba5-48094bd7445e'],
    [['membership-subscribe', 'u-1', 'none'], '799ad2d4-327b-5fde-bd97-2642693b83b6'],
    [['billing-history', 'evt', 'charge'], 'bf4cdba2-9f4e-5c35-be0f-3a6c69768987'],
    [['a'], '86f7e437-faa5-57fc-a15d-1ddcb9eaeaea'],
    [[''], 'da39a3ee-5e6b-5b0d-b255-bfef95601890'],
  ])('%j -> %s, as first derived', (parts, id) => {
    expect(deterministicId(...parts)).toBe(id);
  });

  it('is a version 5 uuid with the RFC 4122 variant, and the parts are not merely concatenated', () => {
    for (let i = 0; i < 500; i++)
      expect(deterministicId(`x${i}`)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicId('ab', 'c')).not.toBe(deterministicId('a', 'bc'));
  });
});
