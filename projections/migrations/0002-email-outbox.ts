import type { Knex } from 'knex';

/** Mail written by the development email adapter (not a read model: not derived from events). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('email_outbox', (t) => {
    t.uuid('id').primary();
    t.text('to_address').notNullable().index();
    t.text('subject').notNullable();
    t.text('body').notNullable();
    t.text('kind').notNullable();
    t.text('link').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('sent_at', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('email_outbox');
}
