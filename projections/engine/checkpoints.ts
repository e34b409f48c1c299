import type { Knex } from 'knex';
import { comparePositions, type Position } from '../../domain/event-store/port';

export interface CheckpointRow {
  name: string;
  version: number;
  commit_position: string;
  prepare_position: string;
  events_applied: string;
  state: string;
  updated_at: Date;
}

export const ZERO: Position = { commit: 0n, prepare: 0n };

export function positionOf(row: Pick<CheckpointRow, 'commit_position' | 'prepare_position'>): Position {
  return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
}

export const isZero = (position: Position) => comparePositions(position, ZERO) === 0;

export function readCheckpoint(db: Knex, name: string): Promise<CheckpointRow | undefined> {
  return db<CheckpointRow>('projection_checkpoints').where({ name }).first();
}

export async function createCheckpoint(db: Knex, name: string, version: number): Promise<void> {
  await db('projection_checkpoints').insert({ name, version }).onConflict('name').ignore();
}
