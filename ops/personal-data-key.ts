import { dataDirKey } from './data-dir-key';

/**
 * The key store's own key (domain/privacy/key-store.ts): PERSONAL_DATA_KEY (64 hex characters
 * or base64 of 32 bytes), else generated once into `<dataDir>/personal-data-key` (mode 600).
 * Losing it makes every person's data unreadable, as if all were forgotten: keep it apart from
 * the database's backups, but keep it.
 */
export function personalDataKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  return dataDirKey(dataDir, 'personal-data-key', 'PERSONAL_DATA_KEY', env);
}
