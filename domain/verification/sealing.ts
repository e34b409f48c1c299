import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Sealing at rest with AES-256-GCM: a fresh 12-byte nonce per sealed value, stored before the
 * 16-byte tag and the ciphertext. Opening checks the tag, so a tampered object fails loudly.
 */
export interface Sealer {
  seal(plain: Buffer): Buffer;
  open(sealed: Buffer): Buffer;
}

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the verification key must be 32 bytes');
  return {
    seal(plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([nonce, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
      decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
