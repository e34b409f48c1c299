import { rm } from 'node:fs/promises';
import type { EmbeddedPostgres } from '../database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { livelyTestPostgres?: EmbeddedPostgres; livelyTestDataDir?: string };
  await state.livelyTestPostgres?.stop();
  if (state.livelyTestDataDir) await rm(state.livelyTestDataDir, { recursive: true, force: true });
}
