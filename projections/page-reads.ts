import type { Knex } from 'knex';
import { preparedArrayQuery } from './engine/database';
import { hashSessionToken, isSessionToken, SESSION_SQL, sessionOfRow, type ResolvedSession } from './sessions';

/**
 * A read a page makes when it loads (docs/architecture.md, "Reads a page makes on load"): one
 * named prepared statement whose `$1` is the viewer's user id (text; a statement may ignore it)
 * and whose own parameters are `$2`, `$3`... Written this way, the statement can run for a
 * viewer already known (`readAs`) or in the same round trip as the lookup of the session that
 * says who the viewer is (`readWithSession`): the request then reaches PostgreSQL once.
 */
export interface PageStatement {
  name: string;
  text: string;
}

/** Runs page statements for one viewer; `values` are the statement's own parameters (`$2`...). */
export type PageRead = <Row>(statement: PageStatement, values: unknown[]) => Promise<Row[]>;

const MARKER = 'lively_page_row';

/**
 * The statement's rows beside a viewer (`viewerSql`, one row or none, naming its user id
 * `session_user_id`), with a marker column between them, in the statement's order. The viewer is
 * one JSON column, and only the first row carries it: the driver describes and parses one viewer
 * column on every request instead of 19, and a page of rows does not repeat the user's row. A row
 * of nulls but the viewer when the statement has none.
 */
const besideViewer = (viewerSql: string, text: string) => `WITH lively_viewer AS (${viewerSql}),
lively_page AS (SELECT row_number() OVER () AS ${MARKER}, q.* FROM (
${text.replace(/\$1(?!\d)/g, '(SELECT session_user_id FROM lively_viewer)')}
) q)
SELECT v.lively_viewer, p.* FROM lively_page p
FULL JOIN (SELECT 1::bigint AS lively_first, row_to_json(lively_viewer) AS lively_viewer FROM lively_viewer) v
ON p.${MARKER} = v.lively_first
ORDER BY p.${MARKER}`;

const KNOWN_VIEWER_SQL = 'SELECT $1::text AS session_user_id';

/** Each statement's two wrapped texts, made once (not on every request). */
const wrapped = new WeakMap<PageStatement, { known: string; session: string }>();
function textsOf(statement: PageStatement): { known: string; session: string } {
  let texts = wrapped.get(statement);
  if (!texts) {
    texts = {
      known: besideViewer(KNOWN_VIEWER_SQL, statement.text),
      session: besideViewer(SESSION_SQL, statement.text),
    };
    wrapped.set(statement, texts);
  }
  return texts;
}

async function run(
  db: Knex,
  name: string,
  text: string,
  values: unknown[],
): Promise<{ viewer: Record<string, unknown>; rows: Record<string, unknown>[] }> {
  const result = await preparedArrayQuery(db, name, text, values);
  const marker = result.columns.indexOf(MARKER);
  const pageColumns = result.columns.slice(marker + 1);
  const rows: Record<string, unknown>[] = [];
  for (const row of result.rows) if (row[marker] !== null) rows.push(named(pageColumns, row, marker + 1));
  return { viewer: (result.rows[0]?.[0] ?? {}) as Record<string, unknown>, rows };
}

function named(columns: string[], row: unknown[], from: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) object[columns[i]] = row[from + i];
  return object;
}

/** Page reads for a viewer already known (null: a visitor). */
export const readAs =
  (db: Knex, viewerId: string | null): PageRead =>
  async <Row>(statement: PageStatement, values: unknown[]) =>
    (await run(db, statement.name, textsOf(statement).known, [viewerId, ...values])).rows as Row[];

/**
 * The session of a cookie token (as `resolveSession`) and a page statement's rows for its user,
 * in one round trip. Without a live session the rows are a visitor's.
 */
export async function readWithSession<Row>(
  db: Knex,
  token: string | undefined,
  statement: PageStatement,
  values: unknown[],
): Promise<{ session: ResolvedSession | null; rows: Row[] }> {
  if (!isSessionToken(token)) return { session: null, rows: await readAs(db, null)<Row>(statement, values) };
  const { viewer, rows } = await run(db, `${statement.name}+session`, textsOf(statement).session, [
    hashSessionToken(token),
    ...values,
  ]);
  return { session: sessionOfRow(viewer), rows: rows as Row[] };
}
