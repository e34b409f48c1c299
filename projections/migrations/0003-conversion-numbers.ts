import type { Knex } from 'knex';

/**
 * Where conversion numbers come from (SPEC §3/§5: a conversion's id is a positive integer).
 * Not a read model: the number is drawn when a conversion is requested and recorded in its
 * event, so replays and rebuilds reproduce it. A request that fails after drawing leaves a gap.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('create sequence if not exists crypto_conversion_number_seq as bigint start with 1 minvalue 1');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop sequence if exists crypto_conversion_number_seq');
}
