import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Knex } from 'knex';
import { noLoginFailures, type LoginFailures, type UnknownEmailFailures } from '../../domain/accounts/commands';

/** Sign-in throttling state kept by the API in PostgreSQL (not events, not read models). */

export const DEVICE_COOKIE = 'lively.device';
const DEVICE_DAYS = 365;
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Device cookies (OWASP): a client that signs in to an account gets a fresh random token, and
 * the table holds its hash for that account. An account's lock does not stop its own clients,
 * so failing on purpose cannot lock the owner out. A fresh token at each sign-in: a token planted
 * by someone else never becomes trusted.
 */
export class TrustedDevices {
  constructor(private readonly db: Knex) {}

  /** The accounts this client signed in to before (none without a live device cookie). */
  async accountsOf(req: Request, now: Date): Promise<string[]> {
    const token: unknown = req.cookies?.[DEVICE_COOKIE];
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) return [];
    return this.db('login_devices')
      .where({ token_hash: digest(token) })
      .where('expires_at', '>', now)
      .pluck('user_id');
  }

  async remember(res: Response, userId: string, secure: boolean, now: Date): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    await this.db('login_devices').insert({
      token_hash: digest(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + DEVICE_DAYS * 86_400_000),
    });
    // Only the sign-in route reads it.
    res.cookie(DEVICE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/api/auth',
      maxAge: DEVICE_DAYS * 86_400_000,
    });
  }
}

interface FailureRow {
  failed_attempts: number;
  last_failure_at: Date | null;
  locked_until: Date | null;
  version: number;
}

const fromRow = (row: FailureRow | undefined): LoginFailures & { version: number } =>
  row
    ? {
        failedAttempts: row.failed_attempts,
        lastFailureAt: row.last_failure_at?.toISOString() ?? null,
        lockedUntil: row.locked_until?.toISOString() ?? null,
        version: row.version,
      }
    : { ...noLoginFailures, version: 0 };

/** Failure counts of emails without an account, by the email's digest; one statement per write. */
export function postgresUnknownEmailFailures(db: Knex): UnknownEmailFailures {
  return {
    async read(email) {
      return fromRow(
        await db('login_failures')
          .where({ key: digest(email) })
          .first(),
      );
    },
    async write(email, next, version, now) {
      const key = digest(email);
      const values = {
        failed_attempts: next.failedAttempts,
        last_failure_at: next.lastFailureAt,
        locked_until: next.lockedUntil,
        updated_at: now,
      };
      if (version === 0)
        return (
          (
            await db('login_failures')
              .insert({ key, ...values, version: 1 })
              .onConflict('key')
              .ignore()
              .returning('key')
          ).length === 1
        );
      return (
        (await db('login_failures')
          .where({ key, version })
          .update({ ...values, version: version + 1 })) === 1
      );
    },
  };
}
