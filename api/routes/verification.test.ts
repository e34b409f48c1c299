import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Agent } from 'supertest';
import { createFsStorage } from '../../domain/media/fs-storage';
import { REDACTED, redactEventData } from '../http/event-redaction';
import { createSandboxIdentityProvider } from '../../domain/verification/sandbox-provider';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { submitVerification, testPhoto, verifyIdentity } from '../../ops/testing/identity-verification';
import { eventually, person, ready } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(180_000);

const SANDBOX_DELAY_MS = 2000;
let stack: TestStack;
let storageDir: string;
const storage = () => createFsStorage(storageDir);

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'lively-verification-'));
  stack = await startTestStack({
    ports: {
      identityProvider: createSandboxIdentityProvider(SANDBOX_DELAY_MS),
      mediaStorage: createFsStorage(storageDir),
    },
  });
  await ready(stack);
});
afterAll(async () => {
  await stack.close();
  await rm(storageDir, { recursive: true, force: true });
});

let unique = 0;
/** A signed-up member (active site plan) who registers as a creator, as the web client does. */
async function creator(firstName = 'Casey'): Promise<{ agent: Agent; id: string }> {
  const agent = stack.agent().set('X-Forwarded-For', `10.20.${++unique % 250}.${unique % 250}`);
  const password = 'Passw0rdGood';
  await agent
    .post('/api/auth/register')
    .send({
      firstName,
      lastName: 'Creator',
      email: `verify.${Date.now()}.${++unique}@example.com`,
      password,
      confirmPassword: password,
      paymentToken: `dev_tok_${Date.now()}_${unique}`,
    })
    .expect(201);
  const me = await eventually(
    () => agent.get('/api/auth/user'),
    (res) => res.body.subscriptionStatus === 'active',
  );
  await agent.post('/api/creators/register').send({ bio: 'Portraits' }).expect(201);
  return { agent, id: me.body.id };
}

const status = (agent: Agent) => agent.get('/api/creators/verification').expect(200);
const eventsOf = async (creatorId: string) =>
  (await stack.store.readStream(`identityVerification-${creatorId}`)).map((event) => ({
    type: event.type,
    data: event.data as Record<string, unknown>,
  }));

describe('identity verification of creators', () => {
  it('submit -> pending -> verified by the sandbox after its delay; 409 meanwhile', async () => {
    const casey = await creator();
    expect((await status(casey.agent)).body).toEqual({
      state: 'not_started',
      submittedAt: null,
      decidedAt: null,
      reason: null,
    });
    const submitted = await submitVerification(casey.agent, { legalName: 'Casey Q Creator' });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toMatchObject({ state: 'pending', decidedAt: null });
    const again = await submitVerification(casey.agent);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Your verification is already being checked');
    const started = Date.now();
    const verified = await eventually(
      () => status(casey.agent),
      (res) => res.body.state === 'verified',
      20_000,
    );
    expect(verified.body.state).toBe('verified');
    expect(Date.now() - started).toBeGreaterThan(SANDBOX_DELAY_MS / 2);
    expect(verified.body.decidedAt).not.toBeNull();
    const events = await eventsOf(casey.id);
    expect(events.map((event) => event.type)).toEqual(['IdentityVerificationSubmitted', 'IdentityVerified']);
    expect(events[1].data).toMatchObject({ provider: 'sandbox', decidedBy: null });
    // The legal name is nowhere in the log in clear.
    expect(JSON.stringify(events)).not.toContain('Casey Q Creator');
    // Staff views of events hide even the sealed value.
    expect(redactEventData(events[0].type, events[0].data)).toMatchObject({ sealedIdentity: REDACTED });
    expect((await submitVerification(casey.agent)).status).toBe(409);
    // The badge: creator views say verified.
    expect((await casey.agent.get(`/api/creators/${casey.id}`).expect(200)).body.verified).toBe(true);
  });

  it('rejects "Reject" names with a reason, and lets the creator submit again', async () => {
    const rita = await creator('Rita');
    expect((await submitVerification(rita.agent, { legalName: 'Rita Reject' })).status).toBe(202);
    const rejected = await eventually(
      () => status(rita.agent),
      (res) => res.body.state === 'rejected',
      20_000,
    );
    expect(rejected.body).toMatchObject({ state: 'rejected', reason: 'Document unreadable' });
    expect((await rita.agent.get(`/api/creators/${rita.id}`).expect(200)).body.verified).toBe(false);
    expect((await submitVerification(rita.agent, { legalName: 'Rita Smith' })).status).toBe(202);
  });

  it('sends "Review" names to staff, who see the record and files and decide; nobody else sees the files', async () => {
    const ron = await creator('Ron');
    const member = await person(stack, 'member');
    const otherCreator = await person(stack, 'creator');
    const staff = await person(stack, 'admin');
    expect((await submitVerification(ron.agent, { legalName: 'Ron Review', dateOfBirth: '1988-02-29' })).status).toBe(
      202,
    );
    await eventually(
      () => status(ron.agent),
      (res) => res.body.state === 'needs_review',
      20_000,
    );
    const list = await staff.agent.get('/api/admin/verifications').query({ state: 'needs_review' }).expect(200);
    const record = list.body.items.find((item: { creatorId: string }) => item.creatorId === ron.id);
    expect(record).toMatchObject({
      legalName: 'Ron Review',
      dateOfBirth: '1988-02-29',
      state: 'needs_review',
      provider: 'sandbox',
      creatorName: 'Ron Creator',
      decidedBy: null,
    });
    const file = `/api/admin/verifications/${record.id}/files/document`;
    // Only compliance staff: not the creator themselves, not another creator, not a member, not a visitor.
    await stack.agent().get(file).expect(401);
    for (const agent of [ron.agent, otherCreator.agent, member.agent]) {
      await agent.get(file).expect(403);
      await agent.get('/api/admin/verifications').expect(403);
      await agent.post(`/api/admin/verifications/${record.id}/decide`).send({ decision: 'verified' }).expect(403);
    }
    await ron.agent.get(`/api/media/${record.id}`).expect(404); // not in the media pipeline either
    const shown = await staff.agent.get(file).buffer(true).expect(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(shown.body as Buffer, await testPhoto())).toBe(0);
    await staff.agent.get(`/api/admin/verifications/${record.id}/files/selfie`).expect(200);
    await staff.agent.get(`/api/admin/verifications/${record.id}/files/passport`).expect(404);

    // At rest: sealed, not the JPEG.
    const stored = await storage().read(`verification/${record.id}/document`);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.equals(await testPhoto())).toBe(false);
    expect(bytes.includes(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(bytes.includes((await testPhoto()).subarray(0, 64))).toBe(false);

    const refused = await staff.agent
      .post(`/api/admin/verifications/${record.id}/decide`)
      .send({ decision: 'rejected', reason: '' })
      .expect(400);
    expect(refused.body.fields.reason).toBe('A reason is required');
    await staff.agent.post(`/api/admin/verifications/${record.id}/decide`).send({ decision: 'maybe' }).expect(400);
    const decided = await staff.agent
      .post(`/api/admin/verifications/${record.id}/decide`)
      .send({ decision: 'verified' })
      .expect(200);
    expect(decided.body).toMatchObject({ state: 'verified', decidedBy: 'admin Test' });
    expect((await status(ron.agent)).body.state).toBe('verified');
    await staff.agent
      .post(`/api/admin/verifications/${record.id}/decide`)
      .send({ decision: 'rejected', reason: 'x' })
      .expect(409);
    const events = await eventsOf(ron.id);
    expect(events.map((event) => event.type)).toEqual([
      'IdentityVerificationSubmitted',
      'IdentityVerificationNeedsReview',
      'IdentityDocumentViewed',
      'IdentityDocumentViewed',
      'IdentityVerified',
    ]);
    expect(events[2].data).toMatchObject({ kind: 'document', staffId: staff.userId });
    expect(events[4].data).toMatchObject({ provider: 'sandbox', decidedBy: staff.userId });
    const verifiedList = await staff.agent.get('/api/admin/verifications').query({ state: 'verified' }).expect(200);
    expect(verifiedList.body.items.some((item: { id: string }) => item.id === record.id)).toBe(true);
    await staff.agent.get('/api/admin/verifications').query({ state: 'bogus' }).expect(400);
    await staff.agent.get('/api/admin/verifications').query({ cursor: 'nope' }).expect(400);
  });

  it('refuses the under-18, missing fields and files that are not images', async () => {
    const young = await creator('Young');
    const today = new Date();
    const seventeen = `${today.getUTCFullYear() - 17}-01-01`;
    const under = await submitVerification(young.agent, { dateOfBirth: seventeen });
    expect(under.status).toBe(400);
    expect(under.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'You must be 18 or older to verify your identity',
    });
    expect(under.body.fields.dateOfBirth).toBe('You must be 18 or older to verify your identity');
    const bad = await submitVerification(young.agent, { legalName: ' ', dateOfBirth: '1990-02-31' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({
      legalName: 'Legal name is required',
      dateOfBirth: 'Date of birth must be a real date',
    });
    const missing = await young.agent
      .post('/api/creators/verification')
      .field('legalName', 'Young Person')
      .field('dateOfBirth', '1990-01-01')
      .expect(400);
    expect(missing.body.fields).toEqual({
      document: 'A photo of your ID document is required',
      selfie: 'A selfie is required',
    });
    await young.agent.post('/api/creators/verification').send({ legalName: 'x' }).expect(400);
    const text = await young.agent
      .post('/api/creators/verification')
      .field('legalName', 'Young Person')
      .field('dateOfBirth', '1990-01-01')
      .attach('document', Buffer.from('%PDF-1.4 not an image at all, honestly'), 'id.jpg')
      .attach('selfie', await testPhoto(), 'selfie.jpg')
      .expect(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await status(young.agent)).body.state).toBe('not_started');
    const member = await person(stack, 'member');
    await member.agent.get('/api/creators/verification').expect(403);
    await stack.agent().get('/api/creators/verification').expect(401);
  });

  it('locked posts, paid messages and payouts wait for verification; public posts do not', async () => {
    const dana = await creator('Dana');
    const reader = await person(stack, 'member');
    const post = (isPublic: boolean) =>
      dana.agent.post('/api/posts').send({ title: 'Hello', content: 'Words', isPublic });
    const locked = await post(false).expect(403);
    expect(locked.body).toMatchObject({
      error: 'Verify your identity to publish locked posts',
      code: 'IDENTITY_VERIFICATION_REQUIRED',
    });
    await post(true).expect(201);
    const paid = await dana.agent
      .post('/api/messages')
      .send({ receiverId: reader.userId, content: 'Pay to read', price: '4.99' })
      .expect(403);
    expect(paid.body.error).toBe('Verify your identity to send paid messages');
    await dana.agent.post('/api/messages').send({ receiverId: reader.userId, content: 'Free hello' }).expect(201);

    const payee = await person(stack, 'creator', { verified: false });
    const payout = () => payee.agent.post('/api/payouts').send({ paymentAccountId: 'acct', amount: '10.00' });
    expect((await payout().expect(403)).body).toMatchObject({
      error: 'Verify your identity to request payouts',
      code: 'IDENTITY_VERIFICATION_REQUIRED',
    });

    await verifyIdentity(stack, dana.agent, dana.id);
    await verifyIdentity(stack, payee.agent, payee.userId);
    await post(false).expect(201);
    await dana.agent
      .post('/api/messages')
      .send({ receiverId: reader.userId, content: 'Pay to read', price: '4.99' })
      .expect(201);
    expect((await payout()).body.code).not.toBe('IDENTITY_VERIFICATION_REQUIRED');
  });
});
