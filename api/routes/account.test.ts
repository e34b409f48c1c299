import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { PrivateEventStore, storedLog } from '../../domain/privacy/private-event-store';
import { DELETED_USER_NAME, REMOVED } from '../../domain/privacy/personal-data';
import { createLogger } from '../logger';
import { exportEventLog, importEventLog } from '../../ops/commands/event-log';
import { reconcile } from '../../ops/commands/reconcile';
import { rebuildAll } from '../../ops/commands/rebuild';
import { allProjectors } from '../../projections/engine/registry';
import { verifyIdentity } from '../../ops/testing/identity-verification';
import { signUpMember, TEST_PASSWORD, type TestMember } from '../../ops/testing/members';
import { earn, eventually, person } from '../../ops/testing/payouts-fixtures';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { createTestDatabase } from '../../ops/testing/test-database';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { createMemoryStorage } from '../../domain/media/testing/memory-storage';
import { noisyJpeg } from '../../domain/media/testing/sample-files';
import { mediaPrefix } from '../../domain/media/variants';

jest.setTimeout(180_000);

/** Everything the product logs during the file, as text. */
let logText = '';
const logSink = new Writable({
  write(chunk, _encoding, done) {
    logText += chunk.toString();
    done();
  },
});

let stack: TestStack;
const storage = createMemoryStorage();
beforeAll(async () => {
  stack = await startTestStack({
    trustProxy: true,
    logger: createLogger({ level: 'debug', destination: logSink }),
    ports: { mediaStorage: storage, mediaSettings: { queue: { pollMs: 100, retryDelaySeconds: 1 } } },
  });
});
afterAll(() => stack.close());

/** Rows of every table of the database whose text holds `needle`, as "table: n". */
async function databaseHits(needle: string): Promise<string[]> {
  const tables = await stack.db.raw(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`,
  );
  const hits: string[] = [];
  for (const { name } of tables.rows as Array<{ name: string }>) {
    const [schema, table] = name.split('.');
    const found = await stack.db.raw(`SELECT count(*)::int AS n FROM "${schema}"."${table}" t WHERE t::text ILIKE ?`, [
      `%${needle}%`,
    ]);
    if (found.rows[0].n > 0) hits.push(`${name}: ${found.rows[0].n}`);
  }
  return hits;
}

describe('export my data, delete my account', () => {
  let ann: TestMember;
  let annEmail: string;
  let bob: TestMember;
  let cleo: TestMember;
  const wallet = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
  let photoId: string;

  beforeAll(async () => {
    ann = await signUpMember(stack, 'Annabel', { lastName: 'Quist' });
    annEmail = (await ann.agent.get('/api/auth/user').expect(200)).body.email;
    bob = await signUpMember(stack, 'Bob');
    cleo = await signUpMember(stack, 'Cleo');
    await cleo.agent.post('/api/creators/register').send({ bio: 'Cleo sings' }).expect(201);
    await verifyIdentity(stack, cleo.agent, cleo.id);
    // Ann writes as a creator, subscribes to Cleo, messages Bob, converts crypto.
    await ann.agent.post('/api/creators/register').send({ bio: 'Annabel makes pottery videos' }).expect(201);
    await verifyIdentity(stack, ann.agent, ann.id);
    await ann.agent
      .post('/api/posts')
      .send({ title: 'Annabel at the wheel', content: 'Glaze day', isPublic: true })
      .expect(201);
    photoId = (
      await ann.agent
        .post('/api/media')
        .attach('file', await noisyJpeg(200), { filename: 'wheel.jpg', contentType: 'image/jpeg' })
        .expect(201)
    ).body.id;
    await eventually(
      () => ann.agent.get(`/api/media/${photoId}`),
      (res) => res.status === 200 && res.body.status === 'ready',
      60_000,
    );
    await ann.agent.post('/api/subscriptions').send({ creatorId: cleo.id, tierId: 'default-basic' }).expect(201);
    await ann.agent.post('/api/messages').send({ receiverId: bob.id, content: 'Annabel says hello' }).expect(201);
    await bob.agent.post('/api/messages').send({ receiverId: ann.id, content: 'Hi there, see you Sunday' }).expect(201);
    await ann.agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: wallet })
      .expect(202);
    // The sandbox's peg rate moves a little, so the credited amount is not fixed: wait for the state.
    const balance = await eventually(
      () => ann.agent.get('/api/crypto/balance').then((r) => r.body),
      (body) => body.conversions?.[0]?.status === 'completed',
    );
    expect(balance.conversions[0].status).toBe('completed');
    expect(await stack.settle()).toBe(true);
  });

  it('exports everything about the member as a JSON download', async () => {
    const res = await ann.agent.get('/api/account/export').expect(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?lively-data-\d{4}-\d{2}-\d{2}\.json/);
    const data = JSON.parse(res.text);
    expect(data.profile).toMatchObject({ email: annEmail, firstName: 'Annabel', lastName: 'Quist' });
    expect(JSON.stringify(data)).not.toMatch(/argon2|passwordHash|password_hash/);
    expect(JSON.stringify(data.posts)).toContain('Annabel at the wheel');
    expect(JSON.stringify(data.messagesSent)).toContain('Annabel says hello');
    expect(JSON.stringify(data.messagesReceived)).toContain('see you Sunday');
    expect(JSON.stringify(data.subscriptions)).toContain(cleo.id);
    expect(data.conversions).toHaveLength(1);
    expect(JSON.stringify(data.conversions)).toContain(wallet);
  });

  it('prepares a large account in a job and notifies with a link to the file', async () => {
    stack.deps.ports.accountExportInlineRows = 0;
    try {
      const res = await bob.agent.get('/api/account/export').expect(202);
      expect(res.body).toMatchObject({ status: 'preparing', exportId: expect.any(String) });
      const notice = await eventually(
        () => bob.agent.get('/api/notifications').then((r) => r.body),
        (page) => JSON.stringify(page).includes(res.body.exportId),
      );
      expect(JSON.stringify(notice)).toContain(`/account?export=${res.body.exportId}`);
      const link = `/api/account/exports/${res.body.exportId}`;
      const file = await bob.agent.get(link).expect(200);
      expect(JSON.parse(file.text).messagesSent[0]).toMatchObject({ content: 'Hi there, see you Sunday' });
      await ann.agent.get(link).expect(404); // someone else's export
    } finally {
      delete stack.deps.ports.accountExportInlineRows;
    }
  });

  it('refuses a creator whose money is not paid out yet, saying why', async () => {
    const dana = await person(stack, 'creator', { twoFactor: false });
    await earn(stack, dana.userId, 10_000, 30);
    const res = await dana.agent.post('/api/account/delete').send({ password: 'whatever' }).expect(409);
    expect(res.body.code).toBe('BALANCE_AVAILABLE');
    expect(res.body.error).toMatch(/available\. Request a payout of it first/);
    await dana.agent.get('/api/auth/user').expect(200);
  });

  it('refuses a wrong password and an empty one, and keeps the account', async () => {
    const empty = await ann.agent.post('/api/account/delete').send({ password: '' }).expect(400);
    expect(empty.body.fields.password).toBe('Password is required');
    const wrong = await ann.agent.post('/api/account/delete').send({ password: 'not-it' }).expect(400);
    expect(wrong.body.error).toBe('Incorrect password');
    expect(wrong.body.fields.password).toBe('Incorrect password');
    await ann.agent.get('/api/auth/user').expect(200);
  });

  it('deletes the account: the person is gone from every page, the database, the log, backups and logs', async () => {
    const backup: string[] = [];
    await readWholeLog(stack.store); // every event readable (another file's open transaction can hide new ones)
    await exportEventLog(
      storedLog(stack.store),
      new Writable({
        write(chunk, _e, done) {
          backup.push(chunk.toString());
          done();
        },
      }),
    );

    expect(storage.keys().some((key) => key.startsWith(mediaPrefix(photoId)))).toBe(true);
    const res = await ann.agent.post('/api/account/delete').send({ password: TEST_PASSWORD }).expect(200);
    expect(res.body.message).toBe('Your account has been deleted');
    expect(await stack.settle()).toBe(true);

    await ann.agent.get('/api/auth/user').expect(401);
    const stored = () => storage.keys().filter((key) => key.startsWith(mediaPrefix(photoId)));
    expect(stored()).toEqual([]); // her photo's files are gone from storage
    await stack.agent().post('/api/auth/login').send({ email: annEmail, password: TEST_PASSWORD }).expect(401);
    await bob.agent.get(`/api/creators/${ann.id}`).expect(404);
    expect(JSON.stringify((await bob.agent.get('/api/creators?q=Annabel').expect(200)).body)).not.toContain(ann.id);

    // Cleo's subscriber list, Bob's conversation, the finance console: amounts and ids, no name.
    const subscribers = await cleo.agent.get(`/api/creators/${cleo.id}/subscribers`).expect(200);
    expect(JSON.stringify(subscribers.body)).not.toMatch(/Annabel|Quist/);
    const conversations = await bob.agent.get('/api/conversations').expect(200);
    const withAnn = conversations.body.find((c: { user: { id: string } }) => c.user.id === ann.id);
    expect(withAnn.user.name).toBe(DELETED_USER_NAME);
    const thread = await bob.agent.get(`/api/messages/${ann.id}`).expect(200);
    expect(JSON.stringify(thread.body)).toContain(REMOVED);
    expect(JSON.stringify(thread.body)).not.toContain('Annabel says hello');
    const admin = await person(stack, 'admin');
    const conversions = await admin.agent.get(`/api/admin/conversions?userId=${ann.id}`).expect(200);
    expect(JSON.stringify(conversions.body)).toContain('20.00');
    expect(JSON.stringify(conversions.body)).not.toMatch(/Annabel|Quist/);
    expect(JSON.stringify(conversions.body)).not.toContain(annEmail);

    // Rebuilt from the log (where she is now unreadable), every read model equals the live one.
    const lines: string[] = [];
    const rebuilt = await rebuildAll({ store: stack.store, db: stack.db }, allProjectors, (line) => lines.push(line));
    expect(lines.filter((line) => /differ/.test(line))).toEqual([]);
    expect(rebuilt.mismatches).toBe(0);
    expect((await reconcile({ store: stack.store, db: stack.db }, new Date())).problems).toEqual([]);

    // Nothing readable names her: the whole database (log included), and the product's own log.
    for (const needle of [annEmail, 'Annabel', 'Quist', 'pottery', wallet])
      expect(await databaseHits(needle)).toEqual([]);
    for (const needle of [annEmail, 'Annabel', 'Quist']) expect(logText).not.toContain(needle);
    expect(logText.length).toBeGreaterThan(1000); // the journey was logged

    // The backup taken before: restored into a new database, it still cannot name her.
    expect(backup.join('')).not.toContain(annEmail);
    const restoreTarget = await createTestDatabase();
    const restored = new PostgresEventStore({ connectionString: restoreTarget.url });
    try {
      await restored.migrate();
      const lines = backup.join('').split('\n').filter(Boolean);
      await importEventLog(
        restored,
        (async function* () {
          yield* lines;
        })(),
      );
      const { cipher } = stack.store as PrivateEventStore;
      const events = await cipher.open(await readWholeLog(restored));
      const hers = events.filter((e) => JSON.stringify(e.data).includes(ann.id));
      expect(hers.length).toBeGreaterThan(5);
      const text = JSON.stringify(events.map((e) => e.data));
      expect(text).not.toMatch(/Annabel|Quist|pottery/);
      expect(text).not.toContain(annEmail);
    } finally {
      await restored.close();
      await restoreTarget.drop();
    }

    // Her email is free again.
    await stack
      .agent()
      .set('X-Forwarded-For', '10.251.0.1')
      .post('/api/auth/register')
      .send({
        firstName: 'New',
        lastName: 'Person',
        email: annEmail,
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        paymentToken: `dev_tok_${randomUUID()}`,
      })
      .expect(201);
  });
});
