import type { CryptoType } from '../contracts/crypto';

/**
 * The crypto processor port: it takes a member's stablecoin deposit and settles it to USD.
 * `submit` starts a conversion (idempotent on the key); `status` tells whether it settled.
 * A process manager submits, and a periodic settlement check asks for the status.
 */
export interface CryptoSubmission {
  idempotencyKey: string;
  cryptoType: CryptoType;
  /** 8-decimal text, e.g. "20.00000000". */
  cryptoAmount: string;
  walletAddress: string;
}

export type CryptoSettlement =
  | { status: 'pending' }
  | { status: 'confirmed'; transactionHash: string }
  | { status: 'failed'; failureReason: string };

export interface CryptoGateway {
  submit(submission: CryptoSubmission, now: Date): Promise<{ gatewayTransactionId: string }>;
  status(gatewayTransactionId: string, now: Date): Promise<CryptoSettlement>;
}
