import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EventStore } from '../domain/event-store/port';

/** Everything the HTTP API needs, built once by the launcher (or a test harness). */
export interface AppDependencies {
  store: EventStore;
  db: Knex;
  logger: Logger;
  clock: () => Date;
  /** Names of the read models whose progress a read-after-write waits for. */
  projectionNames: string[];
  /** Allowed `Origin`s of mutating calls; when empty, the origin the request was addressed to. */
  allowedOrigins: string[];
  /** Folder of the built web client, served on the same origin; none in API-only tests. */
  webRoot?: string;
  /** How long a member's page may take to render on the server before the browser renders it (1,500 ms). */
  memberPageBudgetMs?: number;
  /** Whether the app runs behind a TLS-terminating proxy (secure cookies, client IPs). */
  trustProxy: boolean;
  /** Ports to the outside world (card processor, email, rates, …), filled in by each context. */
  ports: Record<string, unknown>;
  /** With it, GET /metrics also answers on the public port to `Authorization: Bearer <token>`. */
  metricsToken?: string | null;
}
