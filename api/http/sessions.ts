import { randomBytes } from 'node:crypto';
import type { CookieOptions, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { hashSessionToken, resolveSession, SESSION_COOKIE } from '../../projections/sessions';
import { isDeactivated } from '../../projections/users';

const SESSION_DAYS = 30;

function cookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_DAYS * 86_400_000 };
}

/**
 * Server-side sessions in PostgreSQL. The cookie holds a random token; the table holds only
 * its hash, so a leaked table opens no session. Looking a cookie up is `resolveSession`
 * (`projections/sessions.ts`), shared with the realtime service.
 */
export class SessionStore {
  constructor(private readonly db: Knex) {}

  /** A new session (a new id at every login), its cookie set on the response. */
  async open(res: Response, userId: string, secure: boolean): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const id = hashSessionToken(token);
    await this.db('http_sessions').insert({
      id,
      user_id: userId,
      expires_at: new Date(Date.now() + SESSION_DAYS * 86_400_000),
    });
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

  middleware(): RequestHandler {
    return async (req, _res, next) => {
      let session = await resolveSession(this.db, req.cookies?.[SESSION_COOKIE]);
      // A suspended or banned account's sessions were ended when it happened; one that slipped
      // through (opened meanwhile) ends at its first use.
      if (session?.user && isDeactivated(session.user, new Date())) {
        await this.db('http_sessions').where({ id: session.sessionId }).delete();
        session = null;
      }
      req.userRow = session?.user ?? null;
      if (session) {
        req.userId = session.userId;
        req.sessionId = session.sessionId; // the request's logger, made on first use, carries the user
      }
      next();
    };
  }
}
