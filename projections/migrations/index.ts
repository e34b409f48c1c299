import type { Knex } from 'knex';
import * as infrastructure from './0001-infrastructure';
import * as emailOutbox from './0002-email-outbox';
import * as conversionNumbers from './0003-conversion-numbers';
import * as loginThrottle from './0004-login-throttle';
import * as mediaProgress from './0005-media-progress';
import * as billingPriceTables from './0006-billing-price-tables';

/**
 * Knex migrations, listed here rather than discovered on disk so they run the same under
 * tsx, jest and a bundle. Append new ones; never edit a released one.
 */
/**
 * The tables these migrations make, the event store's `events` and the personal-data key store
 * (`personal_data_keys`, domain/privacy/key-store.ts): none is a read model (not
 * derived from events, or the events themselves), so each is queried where it belongs:
 * checkpoints by the engine (`engine/`), sessions, rate limits, idempotency keys and sign-in
 * throttling by the API (`api/http/`; a session cookie is looked up by `sessions.ts`), the
 * outbox by the development mail adapter. Read models are the `tables` of the projectors in
 * `engine/registry.ts`; `engine/boundaries.test.ts` holds the two lists apart.
 */
export const NOT_READ_MODELS = [
  'events',
  'personal_data_keys',
  'projection_checkpoints',
  'http_sessions',
  'rate_limits',
  'idempotency_keys',
  'email_outbox',
  'login_devices',
  'login_failures',
  'media_progress',
];

const migrations: Record<string, Knex.Migration> = {
  '0001-infrastructure': infrastructure,
  '0002-email-outbox': emailOutbox,
  '0003-conversion-numbers': conversionNumbers,
  '0004-login-throttle': loginThrottle,
  '0005-media-progress': mediaProgress,
  '0006-billing-price-tables': billingPriceTables,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

export async function migrateToLatest(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource: source });
}
