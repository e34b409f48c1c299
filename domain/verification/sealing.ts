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

/**
 * Random nonces drawn from a pool filled 340 at a time: asking the system's generator for 12
 * bytes costs about as much as the encryption itself, and personal data is sealed on every
 * append. Each nonce is still 96 random bits, used once.
 */
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;
function freshNonce(): Buffer {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_BYTES * 340);
    nonceOffset = 0;
  }
  nonceOffset += NONCE_BYTES;
  return noncePool.subarray(nonceOffset - NONCE_BYTES, nonceOffset);
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the verification key must be 32 bytes');
  return {
    seal(plain) {
      const nonce = freshNonce();
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
