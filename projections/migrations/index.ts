import type { Knex } from 'knex';
import * as infrastructure from './0001-infrastructure';
import * as emailOutbox from './0002-email-outbox';
import * as conversionNumbers from './0003-conversion-numbers';
import * as loginThrottle from './0004-login-throttle';

/**
 * Knex migrations, listed here rather than discovered on disk so they run the same under
 * tsx, jest and a bundle. Append new ones; never edit a released one.
 */
const migrations: Record<string, Knex.Migration> = {
  '0001-infrastructure': infrastructure,
  '0002-email-outbox': emailOutbox,
  '0003-conversion-numbers': conversionNumbers,
  '0004-login-throttle': loginThrottle,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

export async function migrateToLatest(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource: source });
}
