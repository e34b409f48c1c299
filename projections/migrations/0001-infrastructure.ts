import type { Knex } from 'knex';

/**
 * Tables that are not read models: projection checkpoints (written with the rows they
 * cover), HTTP sessions, rate-limit counters and idempotency answers.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('projection_checkpoints', (t) => {
    t.text('name').primary();
    t.integer('version').notNullable();
    t.specificType('commit_position', 'numeric(20,0)').notNullable().defaultTo(0);
    t.specificType('prepare_position', 'numeric(20,0)').notNullable().defaultTo(0);
    t.bigInteger('events_applied').notNullable().defaultTo(0);
    t.text('state').notNullable().defaultTo('running');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('http_sessions', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().index();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await db.schema.createTable('rate_limits', (t) => {
    t.text('key').primary();
    t.integer('count').notNullable();
    t.timestamp('window_ends_at', { useTz: true }).notNullable();
  });
  await db.schema.createTable('idempotency_keys', (t) => {
    t.text('key').primary();
    t.text('request_hash').notNullable();
    t.integer('status').nullable();
    t.jsonb('body').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['idempotency_keys', 'rate_limits', 'http_sessions', 'projection_checkpoints'])
    await db.schema.dropTableIfExists(table);
}
