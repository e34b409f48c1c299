import { setMaxListeners } from 'node:events';
import type { Knex } from 'knex';
import { Client } from 'pg';
import { followAll } from '../../domain/event-store/follow';
import { comparePositions, type EventStore, type Position } from '../../domain/event-store/port';
import { CheckpointMovedError, applyBatch } from './apply-batch';
import { createCheckpoint, isZero, positionOf, readCheckpoint } from './checkpoints';
import type { Projector } from './projector';
import { rebuildProjection } from './rebuild';

export interface RunnerOptions {
  /** The database holding the read models (also where advisory locks are taken). */
  databaseUrl: string;
  batchSize?: number;
  /** How often a runner that does not hold a projection's lock tries to take it over. */
  lockRetryMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** The advisory-lock key of a projection: a stable 31-bit hash of its name. */
function lockKey(name: string): number {
  let hash = 0;
  for (const char of `projection:${name}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash & 0x7fffffff;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Runs projectors: for each, take its advisory lock (one active runner per projection across
 * processes), make sure its tables exist at its version (rebuilding blue/green when the version
 * changed), then follow the log from its checkpoint: catch-up, then live.
 */
export class ProjectionRunner {
  private readonly abort = new AbortController();
  private lockClient: Client | null = null;
  /** Lock queries share one session; they are sent one after another. */
  private lockQueue: Promise<unknown> = Promise.resolve();
  private readonly owned = new Set<string>();
  private readonly loops: Promise<void>[] = [];
  private readonly log: NonNullable<RunnerOptions['log']>;

  constructor(
    private readonly store: EventStore,
    private readonly db: Knex,
    private readonly projectors: Projector[],
    private readonly options: RunnerOptions,
  ) {
    this.log = options.log ?? (() => undefined);
    // Every follower loop listens for the one stop signal.
    setMaxListeners(0, this.abort.signal);
  }

  /**
   * Starts every follower and resolves once each has its tables (made now on a first run, or
   * already there), or is owned by another process: a request the API serves right after start
   * never meets a read model without its table. A version rebuild goes on after that, beside
   * the tables the API keeps reading.
   */
  async start(): Promise<void> {
    await this.connectLockClient();
    const ready = this.projectors.map((projector) => {
      let signalReady!: () => void;
      const prepared = new Promise<void>((resolve) => (signalReady = resolve));
      this.loops.push(this.run(projector, signalReady));
      return prepared;
    });
    await Promise.all(ready);
  }

  /** The projections this process is applying right now. */
  ownedProjections(): string[] {
    return [...this.owned];
  }

  private async connectLockClient(): Promise<void> {
    const client = new Client({ connectionString: this.options.databaseUrl });
    client.on('error', () => undefined);
    client.on('end', () => {
      // Locks die with their session: stop claiming them, the loops will re-acquire.
      if (this.lockClient === client) this.lockClient = null;
      this.owned.clear();
    });
    await client.connect();
    this.lockClient = client;
  }

  private tryLock(name: string): Promise<boolean> {
    const attempt = this.lockQueue.then(async () => {
      if (!this.lockClient) await this.connectLockClient().catch(() => undefined);
      if (!this.lockClient) return false;
      const result = await this.lockClient.query('SELECT pg_try_advisory_lock($1) AS locked', [lockKey(name)]);
      return result.rows[0].locked === true;
    });
    this.lockQueue = attempt.catch(() => undefined);
    return attempt;
  }

  private async run(projector: Projector, ready: () => void): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        if (!(await this.tryLock(projector.name))) {
          ready(); // another process follows it (and made its tables)
          await sleep(this.options.lockRetryMs ?? 2000, signal);
          continue;
        }
        this.owned.add(projector.name);
        this.log('projection acquired', { projection: projector.name });
        await this.prepare(projector, ready);
        await this.follow(projector, signal);
      } catch (error) {
        if (signal.aborted) break;
        this.log('projection loop failed; restarting', { projection: projector.name, error: String(error) });
        await sleep(1000, signal);
      }
    }
    ready(); // stopped before it was ready: start() must not wait for it
  }

  /** First run: create the tables. A new version: rebuild beside the old tables first. */
  private async prepare(projector: Projector, ready: () => void): Promise<void> {
    const row = await readCheckpoint(this.db, projector.name);
    if (!row) {
      await this.db.transaction(async (trx) => {
        await projector.createTables(trx, 'public');
        await createCheckpoint(trx, projector.name, projector.version);
      });
    }
    ready();
    if (row && row.version !== projector.version) {
      this.log('projection version changed; rebuilding', {
        projection: projector.name,
        from: row.version,
        to: projector.version,
      });
      await rebuildProjection(this.store, this.db, projector);
    }
  }

  private async follow(projector: Projector, signal: AbortSignal): Promise<void> {
    const target = { schema: 'public', checkpoint: projector.name };
    let from = positionOf((await readCheckpoint(this.db, projector.name))!);
    const batches = followAll(this.store, {
      after: isZero(from) ? null : from,
      batchSize: this.options.batchSize ?? 1000,
      signal,
    });
    for await (const batch of batches) {
      if (!this.owned.has(projector.name)) throw new Error('lost the projection lock');
      try {
        from = await applyBatch(this.db, projector, target, from, batch);
      } catch (error) {
        if (error instanceof CheckpointMovedError) return; // re-enter from the stored checkpoint
        throw error;
      }
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.loops);
    await this.lockClient?.end().catch(() => undefined);
    this.lockClient = null;
  }
}

/** Whether every projection's checkpoint has reached `position`. */
export async function projectionsReached(db: Knex, names: string[], position: Position): Promise<boolean> {
  const rows = await db('projection_checkpoints').whereIn('name', names).select('commit_position', 'prepare_position');
  return rows.length === names.length && rows.every((row) => comparePositions(positionOf(row), position) >= 0);
}
