import { freePort } from '../net';
import { startEmbeddedPostgres } from '../database/embedded-postgres';

/**
 * Tests run against a real PostgreSQL: DATABASE_URL's server when set, otherwise an embedded
 * one started here for the whole run. Each test file makes its own database on it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.LIVELY_TEST_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const postgres = await startEmbeddedPostgres({ dataDir: '.data/test-postgres', port: await freePort() });
  process.env.LIVELY_TEST_ADMIN_URL = postgres.url('postgres');
  (globalThis as { livelyTestPostgres?: unknown }).livelyTestPostgres = postgres;
}
