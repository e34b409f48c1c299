import type { Knex } from 'knex';

/** Processing progress of uploads (0..100), for the uploader: not a read model, the job runner writes it. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('media_progress', (t) => {
    t.text('media_id').primary();
    t.smallint('percent').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('media_progress');
}
