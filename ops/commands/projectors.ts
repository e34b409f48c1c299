import type { Knex } from 'knex';
import { createLogger } from '../../api/logger';
import type { EventStore } from '../../domain/event-store/port';
import { processManagerFollower } from '../../projections/engine/process-managers';
import type { Projector } from '../../projections/engine/projector';
import { allProjectors } from '../../projections/engine/registry';
import { ProjectionRunner } from '../../projections/engine/runner';
import { allProcessManagers, createPorts } from '../wiring';
import type { OpsCommand } from './command';

/** A runner for `followers` that reports which projections it holds (for logs and tests). */
export async function startProjectors(
  { store, db, databaseUrl }: { store: EventStore; db: Knex; databaseUrl: string },
  followers: Projector[],
  options: { lockRetryMs?: number; log?: (message: string, fields?: Record<string, unknown>) => void } = {},
): Promise<ProjectionRunner> {
  const runner = new ProjectionRunner(store, db, followers, {
    databaseUrl,
    lockRetryMs: options.lockRetryMs,
    log: options.log,
  });
  await runner.start();
  return runner;
}

export const projectorsCommand: OpsCommand = {
  name: 'projectors',
  args: '',
  summary: 'Run only the projectors and process managers (an extra or dedicated projector instance)',
  help: `Runs every read model's projector and every process manager against the configured database
and event store, without the API or the realtime service, until Ctrl-C / SIGTERM. Start it on
as many machines as you like: each projection is applied by exactly one process at a time
(PostgreSQL advisory lock); when that process dies another takes it over within seconds.`,
  async run(_args, context) {
    const connection = await context.connect();
    const logger = createLogger({ level: context.config.logLevel });
    const clock = () => new Date();
    const managers = allProcessManagers(createPorts({ db: connection.db, logger }));
    const followers = [...allProjectors, ...managers.map((m) => processManagerFollower(m, connection.store, clock))];
    const runner = await startProjectors(connection, followers, {
      log: (message, fields) => logger.info({ ...fields, component: 'projections' }, message),
    });
    logger.info({ projections: followers.length }, 'projectors running');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    logger.info('stopping projectors');
    await runner.stop();
    return 0;
  },
};
