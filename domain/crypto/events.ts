import type { CryptoType } from '../contracts/crypto';
import type { DomainEvent } from '../shared/command-handler';

/**
 * Crypto events. A member's registered deposit wallets live on `cryptoWallets-<userId>` (one
 * stream, so a duplicate address can never be registered twice); each conversion on
 * `cryptoTransaction-<transactionId>`. Crypto amounts are 8-decimal text, rates 4-decimal
 * text, USD integer cents.
 */
export const cryptoWalletsStream = (userId: string) => `cryptoWallets-${userId}`;
export const cryptoTransactionStream = (transactionId: string) => `cryptoTransaction-${transactionId}`;

export interface CryptoWalletRegisteredData {
  walletId: string;
  userId: string;
  cryptoType: CryptoType;
  walletAddress: string;
  registeredAt: string;
}

export interface CryptoConversionRequestedData {
  transactionId: string;
  /** Internal uuid of the conversion (the stream is keyed by transactionId). */
  conversionId: string;
  /**
   * The conversion's public id (SPEC: a positive integer), drawn when it was requested. Every
   * new event has it; events written before numbers existed lack it, and such a conversion
   * has no public number (it is never guessed).
   */
  conversionNumber?: number;
  userId: string;
  walletId: string | null;
  walletAddress: string;
  cryptoType: CryptoType;
  cryptoAmount: string;
  exchangeRate: string;
  grossCents: number;
  feeCents: number;
  feeBasisPoints: number;
  netCents: number;
  requestedAt: string;
}

export interface CryptoConversionSubmittedData {
  transactionId: string;
  userId: string;
  gatewayTransactionId: string;
  submittedAt: string;
}

export interface CryptoConversionCompletedData {
  transactionId: string;
  conversionId: string;
  userId: string;
  walletId: string | null;
  cryptoAmount: string;
  netCents: number;
  transactionHash: string;
  completedAt: string;
}

export interface CryptoConversionFailedData {
  transactionId: string;
  userId: string;
  failureReason: string;
  failedAt: string;
}

/** The conversion paid (part of) a site plan bought from the balance. */
export interface CryptoConversionUsedData {
  transactionId: string;
  conversionId: string;
  userId: string;
  subscriptionMonths: number;
  /** The membership purchase it went into. */
  purchaseId: string;
  usedAt: string;
}

export type CryptoWalletRegistered = DomainEvent<'CryptoWalletRegistered', CryptoWalletRegisteredData>;
export type CryptoConversionRequested = DomainEvent<'CryptoConversionRequested', CryptoConversionRequestedData>;
export type CryptoConversionSubmitted = DomainEvent<'CryptoConversionSubmitted', CryptoConversionSubmittedData>;
export type CryptoConversionCompleted = DomainEvent<'CryptoConversionCompleted', CryptoConversionCompletedData>;
export type CryptoConversionFailed = DomainEvent<'CryptoConversionFailed', CryptoConversionFailedData>;
export type CryptoConversionUsedForSubscription = DomainEvent<
  'CryptoConversionUsedForSubscription',
  CryptoConversionUsedData
>;

export type CryptoTransactionEvent =
  | CryptoConversionRequested
  | CryptoConversionSubmitted
  | CryptoConversionCompleted
  | CryptoConversionFailed
  | CryptoConversionUsedForSubscription;
