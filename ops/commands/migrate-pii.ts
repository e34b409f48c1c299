import { SEALED } from '../../domain/privacy/cipher';
import { PERSONAL_DATA } from '../../domain/privacy/personal-data';
import { PrivateEventStore } from '../../domain/privacy/private-event-store';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import type { EventStore, Position, RecordedEvent } from '../../domain/event-store/port';
import type { OpsCommand } from './command';
import { thousands } from './format';

export interface MigrationReport {
  /** Events of a type with personal data, read. */
  scanned: number;
  /** Of those, written before sealing existed and sealed now. */
  sealed: number;
}

const isPlain = (event: RecordedEvent) => !(SEALED in (event.data as Record<string, unknown>));

/**
 * Moves personal data written before sealing existed to the sealed form, in place, in global
 * order and in pages: each page is read, sealed with its subjects' keys and rewritten in one
 * statement. Safe to stop and run again (sealed events are skipped). A forgotten person's
 * plain fields are written as their forgotten values.
 */
export async function migratePersonalData(
  store: EventStore,
  options: { pageSize?: number; progress?: (report: MigrationReport) => void } = {},
): Promise<MigrationReport> {
  if (!(store instanceof PrivateEventStore)) throw new Error('personal data sealing is off (no key store)');
  const log = store.raw;
  if (!(log instanceof PostgresEventStore))
    throw new Error(
      'migrate-pii rewrites the PostgreSQL log; copy an EventStoreDB log through it (copy-from-esdb, migrate-pii, copy-to-esdb)',
    );
  const report: MigrationReport = { scanned: 0, sealed: 0 };
  const types = Object.keys(PERSONAL_DATA);
  for (let after: Position | null = null; ;) {
    const page = await log.readAll({ after, maxCount: options.pageSize ?? 2000, types });
    if (page.length === 0) return report;
    after = page[page.length - 1].position;
    const plain = page.filter(isPlain);
    const sealed = await store.cipher.seal(plain);
    await log.rewriteData(sealed.map((event) => ({ eventId: event.eventId, data: event.data })));
    report.scanned += page.length;
    report.sealed += plain.length;
    options.progress?.(report);
  }
}

export const migratePiiCommand: OpsCommand = {
  name: 'migrate-pii',
  args: '',
  summary: 'Seal the personal data of events written before sealing existed (one time, safe to repeat)',
  help: `Reads every event of a type that carries personal data (domain/privacy/personal-data.ts)
and rewrites the ones still in plain text with their subject's key, in place: ids, order, types
and metadata stay, and every read model reads the same values, so nothing needs rebuilding.
Run it once after upgrading; running it again finds nothing to do. PostgreSQL log only.`,
  async run(_args, context) {
    const { store } = await context.connect();
    const started = Date.now();
    const report = await migratePersonalData(store, {
      progress: ({ scanned }) =>
        void (process.stderr.isTTY && process.stderr.write(`\rscanned ${thousands(scanned)} events`)),
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    context.out(
      `Sealed ${thousands(report.sealed)} of ${thousands(report.scanned)} events with personal data in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    return 0;
  },
};
