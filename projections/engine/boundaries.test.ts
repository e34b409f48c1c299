import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NOT_READ_MODELS } from '../migrations';
import { allProjectors } from './registry';

/**
 * Read models own their queries (DESIGN §11): outside `projections/`, code calls the queries a
 * read model exports and never names one of its tables in SQL. This scans the production code
 * of api/, realtime/, ops/ and domain/ (tests, `testing/` folders and ops/bench, which set up
 * and inspect data, are left out) for a read-model table as a knex table (`db('users')`,
 * `.join('users as u', …)`, `.from('users')`, `hasTable('users')`) or in raw SQL
 * (`FROM users`, `JOIN users`, `INTO users`, `UPDATE users`).
 */

const ROOT = path.resolve(__dirname, '../..');
const SCANNED = ['api', 'realtime', 'ops', 'domain'];
const LEFT_OUT = /(\.test\.tsx?$|(^|\/)testing\/|^ops\/bench\/)/;

const readModelTables = [...new Set(allProjectors.flatMap((projector) => projector.tables))];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !LEFT_OUT.test(relative) ? [relative] : [];
  });
}

/** The source without comments (a comment may name a read model), lines kept in place. */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function patternsFor(table: string): RegExp[] {
  const name = `['"\`]${table}(\\s+as\\s+\\w+)?['"\`]`;
  return [
    // db('users'), db<Row>('users'), trx('users'), stack.db('users'), this.db('users')
    new RegExp(`\\b(\\w*db|\\w*Db|knex|trx)\\s*(<[^>()]*>)?\\(\\s*${name}`),
    // .from('users'), .join('users as u', …), .table('users'), .into('users'), schema.hasTable('users')
    new RegExp(
      `\\.(from|into|table|join|leftJoin|rightJoin|innerJoin|outerJoin|fullOuterJoin|crossJoin|hasTable|withSchema\\([^)]*\\)\\.table)\\s*\\(\\s*${name}`,
    ),
    // raw SQL
    new RegExp(`\\b(from|join|into|update)\\s+("?)${table}\\2(?![\\w-])`, 'i'),
  ];
}

function offenders(): string[] {
  const found: string[] = [];
  const patterns = readModelTables.map((table) => ({ table, patterns: patternsFor(table) }));
  for (const file of SCANNED.flatMap(sourceFiles)) {
    const lines = withoutComments(readFileSync(path.join(ROOT, file), 'utf8')).split('\n');
    lines.forEach((line, index) => {
      for (const { table, patterns: forTable } of patterns) {
        if (forTable.some((pattern) => pattern.test(line)))
          found.push(`${file}:${index + 1}: ${table}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe('read models own their queries', () => {
  it('knows the read models from the registry, and none of them is one of the tables that are not read models', () => {
    expect(readModelTables.length).toBeGreaterThan(10);
    expect(readModelTables.filter((table) => NOT_READ_MODELS.includes(table))).toEqual([]);
  });

  it('lists every table the migrations make among the tables that are not read models', () => {
    const dir = path.join(ROOT, 'projections/migrations');
    const made = readdirSync(dir).flatMap((file) =>
      [...readFileSync(path.join(dir, file), 'utf8').matchAll(/createTable\(\s*'(\w+)'/g)].map((match) => match[1]),
    );
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((table) => !NOT_READ_MODELS.includes(table))).toEqual([]);
  });

  it('finds the patterns it looks for', () => {
    const hits = (line: string) => patternsFor('users').some((pattern) => pattern.test(line));
    for (const line of [
      "db('users').where({ id })",
      'db<UserRow>(`users`)',
      "this.db('users as u')",
      ".leftJoin('users as u', 'u.id', 'p.user_id')",
      "schema.hasTable('users')",
      'SELECT * FROM users WHERE',
      'left join "users" u on',
    ]) {
      expect([line, hits(line)]).toEqual([line, true]);
    }
    for (const line of [
      "step('users signed up')",
      "userExists(db, 'users')",
      'the users read model',
      "db('users_archive')",
    ])
      expect([line, hits(line)]).toEqual([line, false]);
  });

  it('finds no SQL on a read-model table outside projections/ (call a query of the read model instead)', () => {
    expect(offenders()).toEqual([]);
  });
});
