import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { preparedQuery } from '../../projections/engine/database';
import type { UserRow } from '../../projections/users';

export const SESSION_COOKIE = 'lively.sid';
const SESSION_DAYS = 30;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function cookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_DAYS * 86_400_000 };
}

const SESSION_SQL = `
SELECT u.*, s.id AS session_id, s.user_id AS session_user_id
FROM http_sessions s LEFT JOIN users u ON u.id = s.user_id::uuid
WHERE s.id = $1 AND s.expires_at > now()`;

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

  /**
   * The session behind a cookie token, if it is live, with its user's `users` row (null when
   * the read model does not hold it yet): one round trip, as every signed-in request needs both.
   */
  async resolve(token: string | undefined): Promise<{ sessionId: string; userId: string; user: UserRow | null } | null> {
    if (!token || token.length > 200) return null;
    const [row] = await preparedQuery<UserRow & { session_id: string; session_user_id: string }>(this.db, 'lively-session', SESSION_SQL, [hashToken(token)]);
    if (!row) return null;
    const { session_id: sessionId, session_user_id: userId, ...user } = row;
    return { sessionId, userId, user: user.id === null ? null : (user as UserRow) };
  }

  middleware(): RequestHandler {
    return async (req, _res, next) => {
      const session = await this.resolve(req.cookies?.[SESSION_COOKIE]);
      req.userRow = session?.user ?? null;
      if (session) {
        req.userId = session.userId;
        req.sessionId = session.sessionId;
        req.log = req.log.child({ userId: session.userId });
      }
      next();
    };
  }
}
