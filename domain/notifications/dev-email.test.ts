import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import { createLogger } from '../../api/logger';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { openReadDatabase } from '../../projections/database';
import { migrateToLatest } from '../../projections/migrations';
import { DevelopmentEmailSender } from './dev-email';

let database: TestDatabase;
let db: Knex;
beforeAll(async () => {
  database = await createTestDatabase();
  db = openReadDatabase(database.url, 2);
  await migrateToLatest(db);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('development email adapter', () => {
  it('writes the message to the outbox and logs its link', async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const sender = new DevelopmentEmailSender(db, createLogger({ destination }));
    const link = 'http://localhost:3000/reset-password?token=abc123';
    await sender.send({ to: 'ann@example.com', subject: 'Reset your Lively password', text: `Open ${link}`, kind: 'password-reset', link });
    const rows = await db('email_outbox').select('*');
    expect(rows).toEqual([expect.objectContaining({ to_address: 'ann@example.com', subject: 'Reset your Lively password', body: `Open ${link}`, kind: 'password-reset', link, sent_at: null })]);
    const logged = JSON.parse(lines[0]);
    expect(logged).toMatchObject({ component: 'email', to: 'ann@example.com', link, kind: 'password-reset' });
  });
});
