import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ProcessManager } from '../domain/shared/process-manager';
import { DevelopmentEmailSender } from '../domain/notifications/dev-email';
import { createSandboxGateway } from '../domain/payments/sandbox-gateway';
import { createSandboxPayoutGateway } from '../domain/payouts/sandbox-payout-gateway';
import { creatorEarningsProcess } from '../domain/creators/earnings-process';

/**
 * The composition root: which adapter serves each port and which process managers run.
 * Each bounded context adds its own here.
 */
export function createPorts(infrastructure: { db: Knex; logger: Logger }): Record<string, unknown> {
  return {
    paymentGateway: createSandboxGateway(),
    payoutGateway: createSandboxPayoutGateway(),
    email: new DevelopmentEmailSender(infrastructure.db, infrastructure.logger),
  };
}

export function allProcessManagers(_ports: Record<string, unknown>): ProcessManager[] {
  return [creatorEarningsProcess];
}
