import { Client } from 'pg';
import { openDatabaseUrl } from '../commands/connect';
import { loadConfig } from '../config';

/**
 * A scratch database for one benchmark run on the server the product uses (DATABASE_URL, or
 * the embedded PostgreSQL, started for the run when nothing serves it). Dropped afterwards.
 */
export async function benchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const server = await openDatabaseUrl(loadConfig(), (line) => console.log(line));
  const name = `${prefix}_${Date.now().toString(36)}`;
  const adminUrl = new URL(server.databaseUrl);
  adminUrl.pathname = '/postgres';
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server.databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.stop();
    },
  };
}
