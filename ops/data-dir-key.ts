import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { keptSecret } from './kept-secret';

/**
 * A 32-byte key from the environment variable `envName` (64 hex characters or base64 of 32
 * bytes), else generated once into `<dataDir>/<fileName>` (mode 600) and read from there after.
 */
export function dataDirKey(dataDir: string, fileName: string, envName: string, env: NodeJS.ProcessEnv): Buffer {
  const configured = env[envName];
  if (configured) return decodeKey(configured.trim(), envName);
  const kept = keptSecret(dataDir, fileName, () => randomBytes(32).toString('hex'));
  return decodeKey(kept, join(dataDir, fileName));
}

function decodeKey(value: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes (64 hex characters or base64)`);
  return key;
}
