import { createHash } from 'node:crypto';
import type { EventStore } from '../../domain/event-store/port';
import { PersonalDataCipher } from '../../domain/privacy/cipher';
import { PostgresKeyStore } from '../../domain/privacy/key-store';
import { PrivateEventStore } from '../../domain/privacy/private-event-store';

/**
 * The key store's own key in the benchmarks' databases (issue 23). BENCH-ONLY: derived from a
 * constant so that the kept sealed copy of the large seed (`lively_bench_large_sealed`), whose
 * per-person keys live in its own `personal_data_keys` table sealed with this key, opens on every
 * later run. It seals nothing but generated benchmark data; never use it anywhere else.
 */
export const BENCH_PERSONAL_DATA_KEY = createHash('sha256')
  .update('lively ops/bench: bench-only personal data master key, never for real data')
  .digest();

/**
 * `raw` behind a PrivateEventStore whose key store lives in the database at `url` (its table is
 * made when missing), as `openEventStore({ personalDataKey })` builds it. `close()` closes the
 * key store only: `raw` stays the caller's.
 */
export async function sealedStore(
  raw: EventStore,
  url: string,
  poolSize = 2,
): Promise<{ store: PrivateEventStore; keys: PostgresKeyStore; close(): Promise<void> }> {
  const keys = new PostgresKeyStore({ connectionString: url, masterKey: BENCH_PERSONAL_DATA_KEY, poolSize });
  await keys.migrate();
  return { store: new PrivateEventStore(raw, new PersonalDataCipher(keys)), keys, close: () => keys.close() };
}
