import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The keys of two-factor authentication, all derived (HKDF-SHA-256) from one 32-byte master key
 * (TWO_FACTOR_KEY, else generated once into the data dir; see ops/two-factor-key.ts):
 * - TOTP secrets are sealed with AES-256-GCM before they reach an event;
 * - recovery codes are stored as HMAC-SHA-256 with a pepper. They are random (50 bits), so a slow
 *   hash adds nothing against guessing, while checking one against ten argon2 digests would cost
 *   half a second of CPU per attempt; the pepper keeps a copy of the log alone from being
 *   searched offline;
 * - the pending sign-in between password and code is signed with HMAC-SHA-256.
 */
export interface TwoFactorKeys {
  seal(secret: string): string;
  unseal(sealed: string): string;
  recoveryCodeHash(code: string): string;
  sign(payload: string): string;
  /** Whether `signature` is `payload`'s, in constant time. */
  verifySignature(payload: string, signature: string): boolean;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const derive = (master: Buffer, purpose: string) =>
  Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `lively two-factor ${purpose}`, 32));

export function twoFactorKeys(master: Buffer): TwoFactorKeys {
  if (master.length !== 32) throw new Error('The two-factor key must be 32 bytes');
  const sealing = derive(master, 'secret sealing');
  const pepper = derive(master, 'recovery code pepper');
  const signing = derive(master, 'pending sign-in');
  const hmac = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest('base64url');
  return {
    seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealing, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    unseal(sealed) {
      const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealing, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
    recoveryCodeHash: (code) => hmac(pepper, code),
    sign: (payload) => hmac(signing, payload),
    verifySignature(payload, signature) {
      const expected = Buffer.from(hmac(signing, payload));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
