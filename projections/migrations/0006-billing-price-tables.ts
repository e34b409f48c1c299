import type { Knex } from 'knex';

/**
 * Billing history's version 4 prices a declined renewal from its event: the two tables that
 * worked the price out again belong to no read model any more.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('billing_history_subscriptions');
  await db.schema.dropTableIfExists('billing_history_tiers');
}

/** Nothing to restore: a rebuild of billing history at version 3 makes them again. */
export async function down(): Promise<void> {}
