import type { DomainEvent } from '../shared/command-handler';

/** Why money moved: the reference is the idempotency key of the movement (one per cause). */
export interface BalanceMovement {
  userId: string;
  amountCents: number;
  reason: string;
  reference: string;
  /** The balance after this movement, in cents. */
  balanceCents: number;
}

export type WalletCredited = DomainEvent<'WalletCredited', BalanceMovement>;
export type WalletDebited = DomainEvent<'WalletDebited', BalanceMovement>;
export type WalletEvent = WalletCredited | WalletDebited;

export const walletEventTypes = ['WalletCredited', 'WalletDebited'] as const;

/** A member's spendable USD balance lives on exactly one stream: concurrency control forbids double spending. */
export const walletStream = (userId: string) => `wallet-${userId}`;
