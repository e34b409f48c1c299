import { dataDirKey } from './data-dir-key';

/**
 * The 32-byte master key of two-factor authentication (TOTP secrets sealed at rest, recovery
 * code pepper, pending sign-ins): TWO_FACTOR_KEY (64 hex characters or base64 of 32 bytes), else
 * generated once into `<dataDir>/two-factor-key` (mode 600), as the media URL secret is. Losing
 * it turns every account's two-factor off in effect: keep it with the database's backups.
 */
export function twoFactorMasterKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  return dataDirKey(dataDir, 'two-factor-key', 'TWO_FACTOR_KEY', env);
}
