import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { userStream } from '../accounts/events';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { PersonalDataCipher, SEALED } from './cipher';
import { PostgresKeyStore } from './key-store';
import { DELETED_FIRST_NAME, DELETED_LAST_NAME, forgottenEmail, REMOVED } from './personal-data';
import { forgetPerson, PrivateEventStore, storedLog } from './private-event-store';

let database: TestDatabase;
let log: PostgresEventStore;
let store: PrivateEventStore;
const masterKey = randomBytes(32);

beforeAll(async () => {
  database = await createTestDatabase();
  log = new PostgresEventStore({ connectionString: database.url });
  await log.migrate();
  const keys = new PostgresKeyStore({ connectionString: database.url, masterKey });
  await keys.migrate();
  store = new PrivateEventStore(log, new PersonalDataCipher(keys));
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

const registered = (userId: string) => ({
  type: 'UserRegistered',
  data: {
    userId,
    email: 'ann.lee@example.com',
    firstName: 'Ann',
    lastName: 'Lee',
    passwordHash: 'argon2id$x',
    gatewayCustomerId: 'cus_1',
    cardLast4: '4242',
    registeredAt: '2026-11-01T00:00:00.000Z',
  },
});
const message = (senderId: string, receiverId: string) => ({
  type: 'MessageSent',
  data: {
    messageId: randomUUID(),
    senderId,
    receiverId,
    content: 'Meet me at the blue door',
    mediaUrl: null,
    priceCents: 500,
    sentAt: '2026-11-02T00:00:00.000Z',
  },
});

/** What the database holds, as text: the log and the key store. */
async function databaseText(): Promise<string> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const events = await client.query('SELECT data::text, metadata::text FROM events');
    const keys = await client.query('SELECT encode(sealed_key, $$escape$$) AS k FROM personal_data_keys');
    return JSON.stringify([events.rows, keys.rows]);
  } finally {
    await client.end();
  }
}

describe('personal data in the log', () => {
  it('is sealed in the log and reads back as written; ids and amounts stay plain', async () => {
    const ann = randomUUID();
    const bob = randomUUID();
    await store.append(userStream(ann), [registered(ann)], { expectedRevision: 'no_stream' });
    await store.append(`message-${ann}`, [message(ann, bob)], { expectedRevision: 'no_stream' });

    const [raw] = await log.readStream(userStream(ann));
    const rawData = raw.data as Record<string, unknown>;
    expect(rawData.email).toBeUndefined();
    expect(rawData.userId).toBe(ann);
    expect(rawData.cardLast4).toBe('4242');
    expect(rawData[SEALED]).toEqual({ keyId: ann, box: expect.any(String) });
    const [rawMessage] = await log.readStream(`message-${ann}`);
    expect(rawMessage.data).toMatchObject({ senderId: ann, receiverId: bob, priceCents: 500 });
    expect(JSON.stringify(rawMessage.data)).not.toContain('blue door');
    expect(await databaseText()).not.toContain('ann.lee@example.com');

    expect((await store.readStream(userStream(ann)))[0].data).toEqual(registered(ann).data);
    const all = await readWholeLog(store);
    expect(all.find((e) => e.type === 'MessageSent')!.data).toMatchObject({ content: 'Meet me at the blue door' });
  });

  it('reads as forgotten once the key is deleted, in the log and in a copy of it made before', async () => {
    const ann = randomUUID();
    await store.append(userStream(ann), [registered(ann)], { expectedRevision: 'no_stream' });
    const backup = await storedLog(store).readStream(userStream(ann));

    await forgetPerson(store, ann);

    const [event] = await store.readStream(userStream(ann));
    expect(event.data).toMatchObject({
      userId: ann,
      email: forgottenEmail(ann),
      firstName: DELETED_FIRST_NAME,
      lastName: DELETED_LAST_NAME,
      cardLast4: '4242',
    });
    // The backup holds the same ciphertext: opened now, it no longer names her either.
    const [restored] = await store.cipher.open(backup);
    expect(restored.data).toMatchObject({ email: forgottenEmail(ann), firstName: DELETED_FIRST_NAME });
  });

  it('writes only forgotten values for a forgotten person, and a new key is never made for them', async () => {
    const ann = randomUUID();
    const bob = randomUUID();
    await forgetPerson(store, ann);
    await store.append(`message-${ann}-late`, [message(ann, bob)], { expectedRevision: 'no_stream' });
    const [raw] = await log.readStream(`message-${ann}-late`);
    expect(raw.data).toMatchObject({ content: REMOVED, mediaUrl: null, priceCents: 500 });
    expect((raw.data as Record<string, unknown>)[SEALED]).toBeUndefined();
  });

  it('another process that held the key drops it when it reads AccountDeleted', async () => {
    const ann = randomUUID();
    const other = new PostgresKeyStore({ connectionString: database.url, masterKey });
    const elsewhere = new PrivateEventStore(log, new PersonalDataCipher(other));
    await elsewhere.append(userStream(ann), [registered(ann)], { expectedRevision: 'no_stream' });
    expect((await elsewhere.readStream(userStream(ann)))[0].data).toMatchObject({ firstName: 'Ann' });

    await forgetPerson(store, ann); // this process forgets; `elsewhere` still caches the key
    await store.append(
      userStream(ann),
      [{ type: 'AccountDeleted', data: { userId: ann, at: new Date().toISOString() } }],
      {
        expectedRevision: 0n,
      },
    );
    const events = await elsewhere.readStream(userStream(ann));
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'AccountDeleted']);
    expect((await elsewhere.readStream(userStream(ann)))[0].data).toMatchObject({ firstName: DELETED_FIRST_NAME });
    await other.close();
  });

  it('events written before sealing existed read as they are', async () => {
    const ann = randomUUID();
    await log.append(userStream(ann), [registered(ann)], { expectedRevision: 'no_stream' });
    expect((await store.readStream(userStream(ann)))[0].data).toEqual(registered(ann).data);
  });

  it('a key store with another master key cannot open the keys', async () => {
    const ann = randomUUID();
    await store.append(userStream(ann), [registered(ann)], { expectedRevision: 'no_stream' });
    const stranger = new PostgresKeyStore({ connectionString: database.url, masterKey: randomBytes(32) });
    await expect(stranger.findKeys([ann])).rejects.toThrow();
    await stranger.close();
  });
});
