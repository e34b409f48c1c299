import { randomBytes } from 'node:crypto';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { readAs, readWithSession, type PageRead } from '../../projections/page-reads';
import { hashSessionToken, resolveSession, SESSION_COOKIE, type ResolvedSession } from '../../projections/sessions';
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
      await this.adopt(req, await resolveSession(this.db, req.cookies?.[SESSION_COOKIE]));
      next();
    };
  }

  /**
   * The reads of a page-load request (`api.pageRead`): the first resolves the request's session in
   * its own statement, and `admit` (the route's gates) runs on it before any row is returned.
   * `admitted` settles the request's admission when no read made it (an answer that failed first).
   */
  pageReader(req: Request, admit: () => Promise<void>): { read: PageRead; admitted(): Promise<void> } {
    let admission: Promise<void> | null = null;
    const read: PageRead = async (statement, values) => {
      if (admission) {
        await admission;
        return readAs(this.db, req.userId)(statement, values);
      }
      const { session, rows } = await readWithSession<never>(this.db, req.cookies?.[SESSION_COOKIE], statement, values);
      await (admission = this.adopt(req, session).then(admit));
      return rows;
    };
    const admitted = () =>
      (admission ??= resolveSession(this.db, req.cookies?.[SESSION_COOKIE]).then((session) =>
        this.adopt(req, session).then(admit),
      ));
    return { read, admitted };
  }

  /** Makes a resolved session the request's (`req.userId`, `req.userRow`). */
  private async adopt(req: Request, resolved: ResolvedSession | null): Promise<void> {
    let session = resolved;
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
  }
}
