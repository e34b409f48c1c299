import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';

export const SESSION_COOKIE = 'lively.sid';
const SESSION_DAYS = 30;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function cookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_DAYS * 86_400_000 };
}

/**
 * Server-side sessions in PostgreSQL. The cookie holds a random token; the table holds only
 * its hash, so a leaked table opens no session.
 */
export class SessionStore {
  constructor(private readonly db: Knex) {}

  /** A new session (a new id at every login), its cookie set on the response. */
  async open(res: Response, userId: string, secure: boolean): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const id = hashToken(token);
    await this.db('http_sessions').insert({ id, user_id: userId, expires_at: new Date(Date.now() + SESSION_DAYS * 86_400_000) });
    res.cookie(SESSION_COOKIE, token, cookieOptions(secure));
    return id;
  }

  async close(res: Response, sessionId: string | null, secure: boolean): Promise<void> {
    if (sessionId) await this.db('http_sessions').where({ id: sessionId }).delete();
    res.clearCookie(SESSION_COOKIE, { ...cookieOptions(secure), maxAge: undefined });
  }

  /** Ends every session of a user but `keep` (after a password change). */
  async closeAllFor(userId: string, keep: string | null = null): Promise<void> {
    const query = this.db('http_sessions').where({ user_id: userId });
    if (keep) query.whereNot({ id: keep });
    await query.delete();
  }

  /** The user and session behind a cookie token, if it is live. */
  async resolve(token: string | undefined): Promise<{ sessionId: string; userId: string } | null> {
    if (!token || token.length > 200) return null;
    const id = hashToken(token);
    const row = await this.db('http_sessions').where({ id }).andWhere('expires_at', '>', new Date()).first();
    return row ? { sessionId: row.id, userId: row.user_id } : null;
  }

  middleware(): RequestHandler {
    return async (req, _res, next) => {
      const session = await this.resolve(req.cookies?.[SESSION_COOKIE]);
      if (session) {
        req.userId = session.userId;
        req.sessionId = session.sessionId;
        req.log = req.log.child({ userId: session.userId });
      }
      next();
    };
  }
}
