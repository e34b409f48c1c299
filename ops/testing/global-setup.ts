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
  // A folder per run: several test runs on one machine never share a server.
  const dataDir = `.data/test-postgres-${process.pid}`;
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  (globalThis as { livelyTestDataDir?: string }).livelyTestDataDir = dataDir;
  process.env.LIVELY_TEST_ADMIN_URL = postgres.url('postgres');
  (globalThis as { livelyTestPostgres?: unknown }).livelyTestPostgres = postgres;
}
