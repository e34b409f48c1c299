import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import { preparedQuery } from './engine/database';
import { reviveSessionUser, SESSION_USER_COLUMNS, type SessionUser } from './users';

/**
 * Not a read model: `http_sessions` is the API's own table (made by `migrations/`, written by
 * `api/http/sessions.ts` at sign-in and sign-out). Resolving a session cookie is here because
 * it reads the `users` read model in the same round trip, and both the API (every signed-in
 * request) and the realtime service (every chat socket upgrade) need it: `projections/` is
 * the one folder with queries that both may import.
 */

export const SESSION_COOKIE = 'lively.sid';

/** The table holds only a hash of the cookie's token, so a leaked table opens no session. */
export const hashSessionToken = (token: string) => hash('sha256', token);

export interface ResolvedSession {
  sessionId: string;
  userId: string;
  /** The user's `users` row (the columns a request reads); null while the read model does not hold it yet. */
  user: SessionUser | null;
}

/** The live session of a token's hash (`$1`): its id and user's id first, then the user's columns a request reads. */
export const SESSION_SQL = `
SELECT s.id AS session_id, s.user_id AS session_user_id, ${SESSION_USER_COLUMNS.map((column) => `u.${column}`).join(', ')}
FROM http_sessions s LEFT JOIN users u ON u.id = s.user_id::uuid
WHERE s.id = $1 AND s.expires_at > now()`;

/** Whether a cookie value can be a session token at all (one that cannot is not looked up). */
export const isSessionToken = (token: string | undefined): token is string => Boolean(token) && token!.length <= 200;

/**
 * The session behind a cookie token, if it is live, with its user's `users` row (null when
 * the read model does not hold it yet): one round trip, as every signed-in request needs both.
 */
export async function resolveSession(db: Knex, token: string | undefined): Promise<ResolvedSession | null> {
  if (!isSessionToken(token)) return null;
  const [row] = await preparedQuery<SessionUser & { session_id: string; session_user_id: string }>(
    db,
    'lively-session',
    SESSION_SQL,
    [hashSessionToken(token)],
  );
  return sessionOfRow(row);
}

/**
 * A row of SESSION_SQL's columns as its session (null: none, or a row of nulls), from the driver's
 * row or from JSON (the page reads' viewer, whose timestamps come as text and are revived).
 */
export function sessionOfRow(row: Record<string, unknown> | undefined): ResolvedSession | null {
  if (!row || row.session_id == null) return null;
  const { session_id: sessionId, session_user_id: userId, ...user } = row;
  return {
    sessionId: sessionId as string,
    userId: userId as string,
    user: user.id === null ? null : reviveSessionUser(user),
  };
}
