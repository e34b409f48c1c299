import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import type { EventStore } from '../../domain/event-store/port';
import { PrivateEventStore } from '../../domain/privacy/private-event-store';
import { LARGE_PLAN, seedLarge, type LargePlan } from '../seed/large';
import { startReactionsAtHead } from '../seed/reactions';
import { DEMO_ADMIN, DEMO_CREATOR, DEMO_LOGIN } from '../seed/names';
import type { Connection, OpsContext } from './command';
import { duration, thousands } from './format';

/**
 * The PostgreSQL log with a pool sized for the seed's workers, sealing personal data as the
 * connection does; EventStoreDB as connected.
 */
async function seedStore(
  connection: Connection,
  parallel: number,
): Promise<{ store: EventStore; close(): Promise<void> }> {
  if (connection.store.kind !== 'postgres') return { store: connection.store, close: async () => undefined };
  const log = new PostgresEventStore({ connectionString: connection.databaseUrl, poolSize: parallel + 4 });
  const store =
    connection.store instanceof PrivateEventStore ? new PrivateEventStore(log, connection.store.cipher) : log;
  return { store, close: () => log.close() };
}

/** `seed --size large`: the in-process seed on the configured store, with a progress line. */
export async function runLargeSeed(options: Record<string, string | true>, context: OpsContext): Promise<number> {
  const plan: LargePlan = {
    ...LARGE_PLAN,
    parallel: Number(options.parallel ?? LARGE_PLAN.parallel),
    minEvents: Number(options['min-events'] ?? LARGE_PLAN.minEvents),
  };
  if (!(plan.parallel >= 1) || !(plan.minEvents >= 0)) {
    context.out('Usage: npm run ops -- seed --size large [--parallel N] [--min-events N]');
    return 2;
  }
  const connection = await context.connect();
  const { store, close } = await seedStore(connection, plan.parallel);
  try {
    const report = await seedLarge({ store, db: connection.db }, plan, (line) => process.stderr.write(`${line}\n`));
    const placed = await startReactionsAtHead(store, connection.db);
    if (placed.length)
      context.out(
        `Process managers that never ran start at the head (the seed made their reactions): ${placed.join(', ')}`,
      );
    context.out(
      `Seeded (large) in ${duration(report.seconds)}: ${thousands(report.events)} events appended (${thousands(report.events / report.seconds)} events/s).`,
    );
    context.out(
      Object.entries(report.steps)
        .map(([name, n]) => `${name}: ${thousands(n)}`)
        .join(', '),
    );
    if (report.failures.count)
      context.out(`${report.failures.count} step(s) failed, first: ${report.failures.first.slice(0, 3).join(' | ')}`);
    context.out(
      `Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password} (creator ${DEMO_CREATOR.email}, finance staff ${DEMO_ADMIN.email}, same password)`,
    );
    return report.failures.count ? 1 : 0;
  } finally {
    await close();
  }
}
