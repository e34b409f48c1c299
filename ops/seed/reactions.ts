import type { Knex } from 'knex';
import pino from 'pino';
import type { EventStore } from '../../domain/event-store/port';
import { createCheckpoint } from '../../projections/engine/checkpoints';
import { processManagerFollower } from '../../projections/engine/process-managers';
import { allProcessManagers, createPorts } from '../wiring';

/**
 * The seed runs every process-manager reaction inline, so a process manager that never ran on
 * this database starts at the head of the log instead of replaying a million events to write
 * nothing (its reactions are idempotent either way). Running ones are left alone.
 */
export async function startReactionsAtHead(store: EventStore, db: Knex): Promise<string[]> {
  const head = await store.headPosition();
  if (!head) return [];
  const managers = allProcessManagers(createPorts({ db, logger: pino({ level: 'silent' }) }));
  const placed: string[] = [];
  for (const manager of managers) {
    const follower = processManagerFollower(manager, store, () => new Date());
    if (await db('projection_checkpoints').where({ name: follower.name }).first()) continue;
    await createCheckpoint(db, follower.name, follower.version);
    await db('projection_checkpoints')
      .where({ name: follower.name })
      .update({ commit_position: head.commit.toString(), prepare_position: head.prepare.toString() });
    placed.push(follower.name);
  }
  return placed;
}
