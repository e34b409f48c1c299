import path from 'node:path';
import { Client } from 'pg';
import { openEventStore } from '../../domain/event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import type { Config } from '../config';
import { personalDataKey } from '../personal-data-key';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../database/embedded-postgres';
import type { Connection } from './command';

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The database the launcher would use: DATABASE_URL, or the embedded PostgreSQL in the data
 * folder, reused when a running stack already serves it and started (and later stopped) here
 * otherwise.
 */
export async function openDatabaseUrl(
  config: Config,
  log: (line: string) => void = () => undefined,
): Promise<{ databaseUrl: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, stop: async () => undefined };
  const base = `postgres://postgres:postgres@127.0.0.1:${config.embeddedPostgresPort}`;
  let embedded: EmbeddedPostgres | null = null;
  if (!(await answers(`${base}/postgres`))) {
    const dataDir = path.resolve(config.dataDir, 'postgres');
    log(`starting embedded PostgreSQL (${dataDir}, port ${config.embeddedPostgresPort})`);
    embedded = await startEmbeddedPostgres({ dataDir, port: config.embeddedPostgresPort });
  }
  const admin = new Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  try {
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'lively'`);
    if (exists.rowCount === 0) await admin.query('CREATE DATABASE lively');
  } finally {
    await admin.end();
  }
  return { databaseUrl: `${base}/lively`, stop: async () => void (await embedded?.stop()) };
}

/** Event store and read database, migrated, as the launcher opens them. */
export async function openConnection(
  config: Config,
  log?: (line: string) => void,
): Promise<Connection & { close(): Promise<void> }> {
  const database = await openDatabaseUrl(config, log);
  const store = await openEventStore({
    databaseUrl: database.databaseUrl,
    eventStoreConnectionString: config.eventStoreConnectionString ?? undefined,
    personalDataKey: personalDataKey(config.dataDir),
  });
  const db = openReadDatabase(database.databaseUrl, 5);
  await migrateToLatest(db);
  return {
    databaseUrl: database.databaseUrl,
    store,
    db,
    async close() {
      await db.destroy();
      await store.close();
      await database.stop();
    },
  };
}
