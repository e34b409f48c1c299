import { createHash } from 'node:crypto';
import type { CryptoGateway, CryptoSettlement, CryptoSubmission } from './gateway';

/**
 * The built-in sandbox crypto processor. A submitted conversion confirms `confirmAfterMs`
 * (default 1.5 s) after submission. Documented failure: a wallet address ending in `FAIL`
 * (any case) fails at confirmation with 'Deposit not received'.
 *
 * Stateless, so it survives restarts: the submission time and outcome are encoded in the id
 * (`ctx_sbx_<submittedAtMs>_<ok|fail>_<digest>`); the same key answers with the same id.
 */
export const SANDBOX_CRYPTO_FAILURE = 'Deposit not received';
const ID = /^ctx_sbx_(\d{1,15})_(ok|fail)_([0-9a-f]{16})$/;

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

export class SandboxCryptoGateway implements CryptoGateway {
  private readonly submitted = new Map<string, string>();

  constructor(private readonly confirmAfterMs = 1500) {}

  async submit(submission: CryptoSubmission, now: Date): Promise<{ gatewayTransactionId: string }> {
    const known = this.submitted.get(submission.idempotencyKey);
    if (known) return { gatewayTransactionId: known };
    const outcome = /fail$/i.test(submission.walletAddress) ? 'fail' : 'ok';
    const id = `ctx_sbx_${now.getTime()}_${outcome}_${digest(submission.idempotencyKey).slice(0, 16)}`;
    this.submitted.set(submission.idempotencyKey, id);
    return { gatewayTransactionId: id };
  }

  async status(gatewayTransactionId: string, now: Date): Promise<CryptoSettlement> {
    const match = ID.exec(gatewayTransactionId);
    if (!match) return { status: 'failed', failureReason: 'Unknown transaction' };
    if (now.getTime() < Number(match[1]) + this.confirmAfterMs) return { status: 'pending' };
    if (match[2] === 'fail') return { status: 'failed', failureReason: SANDBOX_CRYPTO_FAILURE };
    return { status: 'confirmed', transactionHash: `0x${digest(gatewayTransactionId)}` };
  }
}
