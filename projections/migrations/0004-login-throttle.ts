import type { Knex } from 'knex';

/**
 * Tables for sign-in throttling, not read models (the API writes them, like rate_limits):
 * clients that signed in to an account before (device cookies, which a lock does not stop),
 * and failure counts of emails without an account (so lockout treats them like accounts).
 * Plus the indexes the housekeeping ticker prunes expired rows by.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('login_devices', (t) => {
    t.text('token_hash').notNullable();
    t.text('user_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.primary(['token_hash', 'user_id']);
  });
  await db.schema.createTable('login_failures', (t) => {
    t.text('key').primary();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('last_failure_at', { useTz: true }).nullable();
    t.timestamp('locked_until', { useTz: true }).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true }).notNullable().index();
  });
  await db.schema.alterTable('http_sessions', (t) => t.index(['expires_at']));
  await db.schema.alterTable('rate_limits', (t) => t.index(['window_ends_at']));
  await db.schema.alterTable('idempotency_keys', (t) => t.index(['created_at']));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('idempotency_keys', (t) => t.dropIndex(['created_at']));
  await db.schema.alterTable('rate_limits', (t) => t.dropIndex(['window_ends_at']));
  await db.schema.alterTable('http_sessions', (t) => t.dropIndex(['expires_at']));
  await db.schema.dropTableIfExists('login_failures');
  await db.schema.dropTableIfExists('login_devices');
}
