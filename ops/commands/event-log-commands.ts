import { finished } from 'node:stream/promises';
import { EventStoreDbEventStore } from '../../domain/event-store/eventstoredb-event-store';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import type { EventStore } from '../../domain/event-store/port';
import { storedLog } from '../../domain/privacy/private-event-store';
import { parseArgs, type OpsCommand, type OpsContext } from './command';
import { openDatabaseUrl } from './connect';
import { copyEventLog, exportEventLog, fileLines, fileWriter, importEventLog } from './event-log';
import { thousands } from './format';

const progressLine = (label: string) => (done: number) =>
  void (process.stderr.isTTY && process.stderr.write(`\r${label}: ${thousands(done)} events`));

export const exportCommand: OpsCommand = {
  name: 'export',
  args: '[file.ndjson]',
  summary: 'Write the whole event log as NDJSON (event ids, order, revisions, metadata)',
  help: `One JSON object per line, in global order: eventId, streamId, revision, type, data,
metadata, createdAt and the source position. Writes to the file, or to standard output when no
file is given (progress goes to standard error). Works on either event store.`,
  async run(args, context) {
    const file = parseArgs(args).positional[0];
    const { store } = await context.connect();
    const out = file ? fileWriter(file) : process.stdout;
    // Ciphertext as it is: a backup restored after an erasure must not bring the person back.
    const count = await exportEventLog(storedLog(store), out, file ? progressLine('exported') : undefined);
    if (file) {
      out.end();
      await finished(out);
      process.stderr.write('\n');
      context.out(`Exported ${thousands(count)} events to ${file}`);
    }
    return 0;
  },
};

export const importCommand: OpsCommand = {
  name: 'import',
  args: '<file.ndjson>',
  summary: 'Append an NDJSON export to the event log, keeping event ids, order and metadata',
  help: `Appends the events in file order, each stream at its original revision (a stream that
already holds other events is a conflict and stops the import) and with its original event id,
so running the same import twice writes nothing the second time. Read models catch up by
themselves (or run "rebuild").`,
  async run(args, context) {
    const file = parseArgs(args).positional[0];
    if (!file) {
      context.out('Usage: npm run ops -- import <file.ndjson>');
      return 2;
    }
    const { store } = await context.connect();
    const count = await importEventLog(storedLog(store), fileLines(file), progressLine('imported'));
    process.stderr.write('\n');
    context.out(`Imported ${thousands(count)} events from ${file} into the ${store.kind} event store`);
    return 0;
  },
};

/** Both adapters side by side: PostgreSQL where the launcher keeps it, EventStoreDB from the option or variable. */
async function bothStores(args: string[], context: OpsContext) {
  const { options } = parseArgs(args);
  const esdb = typeof options.esdb === 'string' ? options.esdb : context.config.eventStoreConnectionString;
  if (!esdb)
    throw new Error(
      'Give the EventStoreDB connection string: --esdb esdb://host:2113?tls=false (or EVENTSTORE_CONNECTION_STRING)',
    );
  const database = await openDatabaseUrl(context.config, (line) => process.stderr.write(`${line}\n`));
  const postgres = new PostgresEventStore({ connectionString: database.databaseUrl });
  await postgres.migrate();
  const eventStoreDb = new EventStoreDbEventStore(esdb);
  return {
    postgres,
    eventStoreDb,
    async close() {
      await Promise.allSettled([postgres.close(), eventStoreDb.close()]);
      await database.stop();
    },
  };
}

function copyCommand(name: string, direction: 'to' | 'from'): OpsCommand {
  return {
    name,
    args: '[--esdb <connection string>]',
    summary:
      direction === 'to'
        ? 'Copy the PostgreSQL event log into EventStoreDB'
        : 'Copy the EventStoreDB event log into PostgreSQL',
    help: `Reads the ${direction === 'to' ? 'PostgreSQL' : 'EventStoreDB'} log in global order and appends every event to
${direction === 'to' ? 'EventStoreDB' : 'PostgreSQL'} with its event id, stream revision and metadata. Safe to repeat: events
already copied are recognised by id. PostgreSQL is DATABASE_URL (or the embedded one);
EventStoreDB is --esdb or EVENTSTORE_CONNECTION_STRING. Stop writers first (or copy, then copy
again right before switching) so nothing is missed; then start with or without
EVENTSTORE_CONNECTION_STRING and rebuild the read models if needed.`,
    async run(args, context) {
      const stores = await bothStores(args, context);
      try {
        const [source, target]: EventStore[] =
          direction === 'to' ? [stores.postgres, stores.eventStoreDb] : [stores.eventStoreDb, stores.postgres];
        const count = await copyEventLog(source, target, progressLine('copied'));
        process.stderr.write('\n');
        context.out(`Copied ${thousands(count)} events from ${source.kind} to ${target.kind}`);
        return 0;
      } finally {
        await stores.close();
      }
    },
  };
}

export const copyToEventStoreDbCommand = copyCommand('copy-to-eventstoredb', 'to');
export const copyFromEventStoreDbCommand = copyCommand('copy-from-eventstoredb', 'from');
