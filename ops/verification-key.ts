import { dataDirKey } from './data-dir-key';

/**
 * The 32-byte key that seals identity documents, selfies, legal names and birth dates at rest
 * (AES-256-GCM): VERIFICATION_KEY (64 hex characters or base64 of 32 bytes), else generated
 * once into `<dataDir>/verification-key` (mode 600). Losing it makes every stored document
 * unreadable: keep it apart from the media storage's backups, but keep it.
 */
export function verificationKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  return dataDirKey(dataDir, 'verification-key', 'VERIFICATION_KEY', env);
}

/** How long the sandbox identity provider takes to answer: IDENTITY_SANDBOX_DELAY_MS, default 3 s. */
export function sandboxIdentityDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.IDENTITY_SANDBOX_DELAY_MS ? Number(env.IDENTITY_SANDBOX_DELAY_MS) : 3000;
  if (!Number.isInteger(value) || value < 0) throw new Error('IDENTITY_SANDBOX_DELAY_MS must be a whole number of ms');
  return value;
}
