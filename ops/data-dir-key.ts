import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A 32-byte key from the environment variable `envName` (64 hex characters or base64 of 32
 * bytes), else generated once into `<dataDir>/<fileName>` (mode 600) and read from there after.
 */
export function dataDirKey(dataDir: string, fileName: string, envName: string, env: NodeJS.ProcessEnv): Buffer {
  const configured = env[envName];
  if (configured) return decodeKey(configured.trim(), envName);
  const file = join(dataDir, fileName);
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
