import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { withCost, type Spent } from './_cores';

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Each item through `work` on one of the clients, the next item to the first client free. */
async function spread<T>(clients: Client[], items: T[], work: (client: Client, item: T) => Promise<unknown>) {
  const queue = [...items];
  await Promise.all(
    clients.map(async (client) => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(client, item);
    }),
  );
}

/**
 * The least PostgreSQL can spend writing the read models a rebuild writes: their final rows
 * (as the rebuild left them in `tables`), already as COPY text, copied into empty tables of the
 * same shape, then all their indexes and keys made, `connections` statements at a time. No
 * rebuild writes them for less: it also works out every row, and keeps some keys as it goes.
 */
export async function writeFloor(
  url: string,
  tables: string[],
  postmaster: number | null,
  connections: number,
): Promise<{ rows: number; bytes: number; indexes: number; spent: Spent }> {
  const schema = `write_floor_${Date.now().toString(36)}`;
  const admin = await connect(url);
  const clients = await Promise.all(Array.from({ length: connections }, () => connect(url)));
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const texts = new Map<string, Buffer[]>();
    const indexes: string[] = [];
    let rows = 0;
    for (const table of tables) {
      await admin.query(
        `CREATE TABLE ${schema}."${table}" (LIKE public."${table}" INCLUDING DEFAULTS INCLUDING GENERATED)`,
      );
      const chunks: Buffer[] = [];
      const copy = admin.query(copyTo(`COPY public."${table}" TO STDOUT`));
      for await (const chunk of copy) chunks.push(chunk as Buffer);
      rows += copy.rowCount ?? 0;
      texts.set(table, chunks);
      const defined = await admin.query<{ definition: string }>(
        `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = $1::regclass`,
        [`public."${table}"`],
      );
      // Unnamed, so PostgreSQL names them in the floor's schema; unique ones stay unique.
      for (const { definition } of defined.rows)
        indexes.push(definition.replace(/^(CREATE (?:UNIQUE )?INDEX) \S+ ON public\./, `$1 ON ${schema}.`));
    }
    const size = (table: string) => texts.get(table)!.reduce((sum, chunk) => sum + chunk.length, 0);
    const largestFirst = [...tables].sort((a, b) => size(b) - size(a));
    const [, cost] = await withCost(postmaster, async () => {
      await spread(clients, largestFirst, (client, table) =>
        pipeline(Readable.from(texts.get(table)!), client.query(copyFrom(`COPY ${schema}."${table}" FROM STDIN`))),
      );
      await spread(clients, indexes, async (client, statement) => {
        await client.query(`SET maintenance_work_mem = '256MB'`); // as the rebuild's deferred indexes
        await client.query(statement);
      });
    });
    const bytes = tables.reduce((sum, table) => sum + size(table), 0);
    return { rows, bytes, indexes: indexes.length, spent: cost };
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await Promise.all([admin, ...clients].map((client) => client.end()));
  }
}
