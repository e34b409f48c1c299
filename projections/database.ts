import knex, { type Knex } from 'knex';
import { types } from 'pg';

// bigint (int8) and numeric columns stay strings: money and positions never become JS floats.
types.setTypeParser(types.builtins.INT8, (value) => value);
types.setTypeParser(types.builtins.NUMERIC, (value) => value);

export function openReadDatabase(connectionString: string, poolSize = 10): Knex {
  return knex({ client: 'pg', connection: connectionString, pool: { min: 0, max: poolSize } });
}
