import { createMediaUrlSigner } from './signed-url';

const SECRET = 'a-test-secret-that-is-long-enough-to-sign';

function parts(url: string) {
  const parsed = new URL(url, 'http://lively.test');
  const [, , , id, , variant] = parsed.pathname.split('/');
  return {
    id,
    variant,
    exp: parsed.searchParams.get('exp') ?? undefined,
    sig: parsed.searchParams.get('sig') ?? undefined,
  };
}

describe('signed media URLs', () => {
  let clock = new Date('2026-01-01T12:00:00Z');
  const signer = createMediaUrlSigner(SECRET, () => clock);

  beforeEach(() => {
    clock = new Date('2026-01-01T12:00:00Z');
  });

  it('makes a URL for one variant of one item that verifies until it expires', () => {
    const url = signer.url('m-1', 'w640.webp', 600);
    expect(url).toMatch(/^\/api\/media\/m-1\/files\/w640\.webp\?exp=\d+&sig=[\w-]{43}$/);
    const { id, variant, exp, sig } = parts(url);
    expect(Number(exp) - clock.getTime() / 1000).toBeGreaterThanOrEqual(600);
    expect(Number(exp) - clock.getTime() / 1000).toBeLessThanOrEqual(900);
    expect(signer.verify(id, variant, exp, sig)).toBe('ok');
    clock = new Date((Number(exp) + 1) * 1000);
    expect(signer.verify(id, variant, exp, sig)).toBe('expired');
  });

  it('gives the same URL within a few minutes, so the browser can cache it', () => {
    clock = new Date('2026-01-01T12:00:30Z');
    const first = signer.url('m-1', 'preview.webp');
    clock = new Date('2026-01-01T12:01:30Z');
    expect(signer.url('m-1', 'preview.webp')).toBe(first);
  });

  it('refuses another item, another variant, a later expiry, a tampered or missing signature', () => {
    const { exp, sig } = parts(signer.url('m-1', 'w640.webp'));
    expect(signer.verify('m-2', 'w640.webp', exp, sig)).toBe('invalid');
    expect(signer.verify('m-1', 'original', exp, sig)).toBe('invalid');
    expect(signer.verify('m-1', 'w640.webp', String(Number(exp) + 3600), sig)).toBe('invalid');
    const tampered = `${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(signer.verify('m-1', 'w640.webp', exp, tampered)).toBe('invalid');
    // The last character's spare bits: another spelling of the same bytes is refused too.
    const last = sig!.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(`${sig!.slice(0, -1)}${sameBytes}`, 'base64url').equals(Buffer.from(sig!, 'base64url'))).toBe(
      true,
    );
    expect(signer.verify('m-1', 'w640.webp', exp, `${sig!.slice(0, -1)}${sameBytes}`)).toBe('invalid');
    expect(signer.verify('m-1', 'w640.webp', exp, undefined)).toBe('invalid');
    expect(signer.verify('m-1', 'w640.webp', undefined, sig)).toBe('invalid');
    expect(signer.verify('m-1', 'w640.webp', ['1'], sig)).toBe('invalid');
  });

  it('does not verify a URL signed with another secret', () => {
    const other = createMediaUrlSigner('another-secret-that-is-long-enough-too', () => clock);
    const { exp, sig } = parts(other.url('m-1', 'original'));
    expect(signer.verify('m-1', 'original', exp, sig)).toBe('invalid');
  });

  it('refuses a short secret', () => {
    expect(() => createMediaUrlSigner('short', () => clock)).toThrow('at least 32');
  });
});
