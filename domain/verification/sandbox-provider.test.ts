import { isAdult } from '../contracts/verification';
import { createSandboxIdentityProvider } from './sandbox-provider';
import { createSealer } from './sealing';

const image = { bytes: Buffer.from('x'), mime: 'image/jpeg' };
const submittedAt = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(submittedAt.getTime() + ms);

describe('sandbox identity provider', () => {
  it('answers after its delay by the documented test names', async () => {
    const provider = createSandboxIdentityProvider(2000);
    const ask = async (legalName: string, ms: number) => {
      const { providerReference } = await provider.submit({
        reference: 'r',
        legalName,
        dateOfBirth: '1990-01-01',
        document: image,
        selfie: image,
        submittedAt,
      });
      return provider.status({ providerReference, submittedAt }, later(ms));
    };
    expect(await ask('Ada Lovelace', 1999)).toEqual({ status: 'pending' });
    expect(await ask('Ada Lovelace', 2000)).toEqual({ status: 'verified' });
    expect(await ask('Rita Reject', 2000)).toEqual({ status: 'rejected', reason: 'Document unreadable' });
    expect(await ask('Ron Review', 2000)).toMatchObject({ status: 'needs_review' });
  });
});

describe('sealing', () => {
  it('round-trips, uses a fresh nonce each time and refuses a tampered value', () => {
    const sealer = createSealer(Buffer.alloc(32, 7));
    const plain = Buffer.from('passport scan');
    const a = sealer.seal(plain);
    const b = sealer.seal(plain);
    expect(a.equals(b)).toBe(false);
    expect(a.includes(plain)).toBe(false);
    expect(sealer.open(a).toString()).toBe('passport scan');
    a[a.length - 1] ^= 1;
    expect(() => sealer.open(a)).toThrow();
    expect(() => createSealer(Buffer.alloc(32, 8)).open(b)).toThrow();
  });
});

describe('isAdult', () => {
  it('is 18 on the 18th birthday, not the day before', () => {
    expect(isAdult('2008-01-02', new Date('2026-01-02T00:00:00Z'))).toBe(true);
    expect(isAdult('2008-01-03', new Date('2026-01-02T23:59:00Z'))).toBe(false);
  });
});
