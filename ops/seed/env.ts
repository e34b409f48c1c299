import type { CryptoGateway } from '../../domain/crypto/gateway';
import type { RatesProvider } from '../../domain/crypto/rates';
import type { EventStore } from '../../domain/event-store/port';
import type { PaymentGateway } from '../../domain/payments/gateway';
import type { PayoutGateway } from '../../domain/payouts/gateway';
import type { CommandContext } from '../../domain/shared/command-handler';
import type { Failures } from './workers';

/** What every step of the in-process seed works with. */
export interface SeedEnv {
  store: EventStore;
  payments: PaymentGateway;
  crypto: CryptoGateway;
  payouts: PayoutGateway;
  rates: RatesProvider;
  /** Public conversion numbers (the product's PostgreSQL sequence). */
  conversionNumbers: { next(): Promise<number> };
  /** argon2 hash of the demo password, made once for every seeded account. */
  passwordHash: string;
  /** Makes this run's e-mail addresses unique, so a second run adds people. */
  tag: string;
  /** Day zero of the dataset, in ms: the story runs from here to now. */
  start: number;
  parallel: number;
  failures: Failures;
  phase(name: string): void;
}

const DAY = 86_400_000;

/** A moment `days` (fractional) after the dataset's day zero. */
export const day = (env: SeedEnv, days: number): Date => new Date(env.start + days * DAY);

export const as = (actorId: string | null, now: Date): CommandContext => ({ actorId, clientId: 'ops-seed', now });
