import type { EmbeddedPostgres } from '../database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const postgres = (globalThis as { livelyTestPostgres?: EmbeddedPostgres }).livelyTestPostgres;
  await postgres?.stop();
}
