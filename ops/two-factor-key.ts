import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The 32-byte master key of two-factor authentication (TOTP secrets sealed at rest, recovery
 * code pepper, pending sign-ins): TWO_FACTOR_KEY (64 hex characters or base64 of 32 bytes), else
 * generated once into `<dataDir>/two-factor-key` (mode 600), as the media URL secret is. Losing
 * it turns every account's two-factor off in effect: keep it with the database's backups.
 */
export function twoFactorMasterKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.TWO_FACTOR_KEY) return decodeKey(env.TWO_FACTOR_KEY.trim(), 'TWO_FACTOR_KEY');
  const file = join(dataDir, 'two-factor-key');
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
