import knex, { type Knex } from 'knex';
import { types } from 'pg';

// bigint (int8) and numeric columns stay strings: money and positions never become JS floats.
types.setTypeParser(types.builtins.INT8, (value) => value);
types.setTypeParser(types.builtins.NUMERIC, (value) => value);

/**
 * A knex pool on the read side. `genericPlans` (plan_cache_mode=force_generic_plan for the
 * pool's sessions): statements are planned without looking at their parameter values, so a
 * named statement is planned once per connection instead of on every execution (PostgreSQL
 * kept re-planning the feed, which cost more than running it). For pools that serve requests,
 * whose queries are keyed lookups and keyset pages that one plan serves well.
 */
export function openReadDatabase(
  connectionString: string,
  poolSize = 10,
  options: { genericPlans?: boolean } = {},
): Knex {
  const connection = options.genericPlans
    ? { connectionString, options: '-c plan_cache_mode=force_generic_plan' }
    : connectionString;
  return knex({ client: 'pg', connection, pool: { min: 0, max: poolSize } });
}

/**
 * A named (prepared once per connection) query on one of the pool's connections: for the hot
 * read paths, where knex's query building and the server's re-planning show up per request.
 */
export async function preparedQuery<Row>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  return (await onConnection<{ rows: Row[] }>(db, { name, text, values })).rows;
}

/** `preparedQuery` answering each row as an array, with the columns' names in order (they may repeat). */
export async function preparedArrayQuery(
  db: Knex,
  name: string,
  text: string,
  values: unknown[],
): Promise<{ columns: string[]; rows: unknown[][] }> {
  const { fields, rows } = await onConnection<{ fields: Array<{ name: string }>; rows: unknown[][] }>(db, {
    name,
    text,
    values,
    rowMode: 'array',
  });
  return { columns: fields.map((field) => field.name), rows };
}

async function onConnection<Result>(db: Knex, query: object): Promise<Result> {
  const client = db.client as {
    acquireConnection(): Promise<{ query(q: object): Promise<Result> }>;
    releaseConnection(c: unknown): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    return await connection.query(query);
  } finally {
    await client.releaseConnection(connection);
  }
}
