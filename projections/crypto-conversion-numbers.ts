import type { Knex } from 'knex';
import { isConversionNumber, type ConversionNumbers } from '../domain/crypto/conversion-numbers';

/**
 * Conversion numbers from the PostgreSQL sequence of migration 0003. The read side is always
 * PostgreSQL, so this serves either event store adapter, and every process shares one sequence.
 *
 * Before its first number, the sequence is moved past the highest number the crypto_conversions
 * read model knows: a log imported or copied into a fresh database carries numbers its new
 * sequence never issued.
 */
export function postgresConversionNumbers(db: Knex): ConversionNumbers {
  let synced: Promise<void> | null = null;
  const sync = async () => {
    if (!(await db.schema.hasTable('crypto_conversions'))) return;
    await db.raw(
      `select setval('crypto_conversion_number_seq', known.top)
         from (select max(number) as top from crypto_conversions) known
        where known.top >= (select last_value from crypto_conversion_number_seq)`,
    );
  };
  return {
    async next() {
      synced ??= sync().catch((error) => {
        synced = null;
        throw error;
      });
      await synced;
      const result = await db.raw<{ rows: Array<{ n: string }> }>(
        `select nextval('crypto_conversion_number_seq') as n`,
      );
      const number = Number(result.rows[0].n);
      if (!isConversionNumber(number)) throw new Error(`conversion number out of range: ${result.rows[0].n}`);
      return number;
    },
  };
}
