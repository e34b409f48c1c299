import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ProcessManager } from '../domain/shared/process-manager';

/**
 * The composition root: which adapter serves each port and which process managers run.
 * Each bounded context adds its own here.
 */
export function createPorts(_infrastructure: { db: Knex; logger: Logger }): Record<string, unknown> {
  return {};
}

export function allProcessManagers(_ports: Record<string, unknown>): ProcessManager[] {
  return [];
}
