import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { createSealer, type Sealer } from '../verification/sealing';

/**
 * One AES-256 key per data subject, kept outside the log in PostgreSQL (`personal_data_keys`),
 * each sealed with the key store's own key (PERSONAL_DATA_KEY). Forgetting a subject deletes
 * its key and leaves a tombstone, so nothing is ever sealed for that subject again: every
 * event that names them, in the log and in any backup of it, is unreadable from then on.
 *
 * Keys are cached in the process (a person's key never changes); `forget` drops the cache
 * entry here, and other processes drop theirs when they read the AccountDeleted event.
 */
export interface KeyStore {
  /** Keys of these subjects, made for those without one; null for a forgotten subject. */
  keysFor(subjectIds: readonly string[]): Promise<Map<string, Buffer | null>>;
  /** Keys of these subjects as they are: null for a forgotten one, absent for one never keyed. */
  findKeys(subjectIds: readonly string[]): Promise<Map<string, Buffer | null>>;
  forget(subjectId: string): Promise<void>;
  /** Drops a cached key (another process forgot the subject). */
  evict(subjectId: string): void;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const TABLE = `CREATE TABLE IF NOT EXISTS personal_data_keys (
  subject_id text PRIMARY KEY,
  sealed_key bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  forgotten_at timestamptz
)`;

export class PostgresKeyStore implements KeyStore {
  private readonly pool: Pool;
  private readonly sealer: Sealer;
  private readonly cache = new Map<string, Buffer | null>();

  constructor(options: { connectionString: string; masterKey: Buffer; poolSize?: number }) {
    this.pool = new Pool({ connectionString: options.connectionString, max: options.poolSize ?? 4 });
    this.pool.on('error', () => undefined); // a dropped idle connection is replaced on next use
    this.sealer = createSealer(options.masterKey);
  }

  async migrate(): Promise<void> {
    await this.pool.query(TABLE);
  }

  async findKeys(subjectIds: readonly string[]): Promise<Map<string, Buffer | null>> {
    const found = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const id of new Set(subjectIds)) {
      const cached = this.cache.get(id);
      if (cached !== undefined) found.set(id, cached);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const { rows } = await this.pool.query<{ subject_id: string; sealed_key: Buffer | null }>({
      name: 'lively_find_personal_keys',
      text: 'SELECT subject_id, sealed_key FROM personal_data_keys WHERE subject_id = ANY($1::text[])',
      values: [missing],
    });
    for (const row of rows) found.set(row.subject_id, this.remember(row.subject_id, row.sealed_key));
    return found;
  }

  async keysFor(subjectIds: readonly string[]): Promise<Map<string, Buffer | null>> {
    const found = await this.findKeys(subjectIds);
    const unkeyed = [...new Set(subjectIds)].filter((id) => !found.has(id));
    if (unkeyed.length === 0) return found;
    // A racing process may key the same subject first: its key wins, ours is dropped.
    const sealed = unkeyed.map(() => this.sealer.seal(randomBytes(32)));
    const { rows } = await this.pool.query<{ subject_id: string; sealed_key: Buffer | null }>({
      name: 'lively_make_personal_keys',
      text: `WITH made AS (
          INSERT INTO personal_data_keys (subject_id, sealed_key)
          SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (subject_id) DO NOTHING
          RETURNING subject_id, sealed_key)
        SELECT subject_id, sealed_key FROM made
        UNION ALL
        SELECT subject_id, sealed_key FROM personal_data_keys
        WHERE subject_id = ANY($1::text[]) AND subject_id NOT IN (SELECT subject_id FROM made)`,
      values: [unkeyed, sealed],
    });
    for (const row of rows) found.set(row.subject_id, this.remember(row.subject_id, row.sealed_key));
    // One keyed by a transaction that committed after this statement began: visible to the next.
    const late = unkeyed.filter((id) => !found.has(id));
    if (late.length > 0) for (const [id, key] of await this.findKeys(late)) found.set(id, key);
    return found;
  }

  async forget(subjectId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO personal_data_keys (subject_id, sealed_key, forgotten_at) VALUES ($1, NULL, now())
       ON CONFLICT (subject_id) DO UPDATE SET sealed_key = NULL, forgotten_at = COALESCE(personal_data_keys.forgotten_at, now())`,
      [subjectId],
    );
    this.cache.set(subjectId, null);
  }

  evict(subjectId: string): void {
    this.cache.delete(subjectId);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private remember(subjectId: string, sealedKey: Buffer | null): Buffer | null {
    const key = sealedKey ? this.sealer.open(sealedKey) : null;
    this.cache.set(subjectId, key);
    return key;
  }
}
