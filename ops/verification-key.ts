import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The 32-byte key that seals identity documents, selfies, legal names and birth dates at rest
 * (AES-256-GCM): VERIFICATION_KEY (64 hex characters or base64 of 32 bytes), else generated
 * once into `<dataDir>/verification-key` (mode 600). Losing it makes every stored document
 * unreadable: keep it apart from the media storage's backups, but keep it.
 */
export function verificationKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.VERIFICATION_KEY) return decodeKey(env.VERIFICATION_KEY.trim(), 'VERIFICATION_KEY');
  const file = join(dataDir, 'verification-key');
  try {
    return decodeKey(readFileSync(file, 'utf8').trim(), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  // Written aside, then linked into place: the link fails if another process won the race.
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, randomBytes(32).toString('hex'), { mode: 0o600 });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  return decodeKey(readFileSync(file, 'utf8').trim(), file);
}

function decodeKey(value: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes (64 hex characters or base64)`);
  return key;
}

/** How long the sandbox identity provider takes to answer: IDENTITY_SANDBOX_DELAY_MS, default 3 s. */
export function sandboxIdentityDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.IDENTITY_SANDBOX_DELAY_MS ? Number(env.IDENTITY_SANDBOX_DELAY_MS) : 3000;
  if (!Number.isInteger(value) || value < 0) throw new Error('IDENTITY_SANDBOX_DELAY_MS must be a whole number of ms');
  return value;
}
