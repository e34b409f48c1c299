import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import { createLogger } from '../../api/logger';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import { DevelopmentEmailSender, recentOutboxMail } from './dev-email';

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
  it('writes the message to the outbox and logs neither its link, its token nor its recipient', async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const sender = new DevelopmentEmailSender(db, createLogger({ level: 'trace', destination }));
    const link = 'http://localhost:3000/reset-password?token=abc123SecretToken';
    await sender.send({
      to: 'ann@example.com',
      subject: 'Reset your Lively password',
      text: `Open ${link}`,
      kind: 'password-reset',
      link,
    });
    const rows = await db('email_outbox').select('*');
    expect(rows).toEqual([
      expect.objectContaining({
        to_address: 'ann@example.com',
        subject: 'Reset your Lively password',
        body: `Open ${link}`,
        kind: 'password-reset',
        link,
        sent_at: null,
      }),
    ]);
    expect(JSON.parse(lines[0])).toMatchObject({
      component: 'email',
      adapter: 'outbox',
      kind: 'password-reset',
      outboxId: rows[0].id,
    });
    expect(lines.join('')).not.toMatch(/abc123SecretToken|reset-password\?|ann@example\.com/);
  });

  it('reads the newest mail first, for one recipient case-insensitively', async () => {
    const sender = new DevelopmentEmailSender(db, createLogger({ level: 'silent' }));
    await sender.send({ to: 'cy@example.com', subject: 'First', text: 'one', kind: 'test' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await sender.send({ to: 'cy@example.com', subject: 'Second', text: 'two', kind: 'test', link: 'http://x/y' });
    const mails = await recentOutboxMail(db, { to: 'CY@Example.com', limit: 5 });
    expect(mails.map((m) => [m.subject, m.link])).toEqual([
      ['Second', 'http://x/y'],
      ['First', null],
    ]);
    expect(await recentOutboxMail(db, { to: 'cy@example.com', limit: 1 })).toHaveLength(1);
  });
});
