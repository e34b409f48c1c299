import { randomUUID } from 'node:crypto';
import { ACCOUNT_DEACTIVATED_TEXT, PAYOUT_HELD_REASON, type ModerationReport } from '../../domain/contracts/safety';
import { requestPayout } from '../../domain/payouts/commands';
import { ChatClient, registerMember, type TestMember } from '../../ops/testing/chat-client';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { earn, eventually, person } from '../../ops/testing/payouts-fixtures';
import { REMOVED_MESSAGE_TEXT } from '../../projections/messages';

jest.setTimeout(180_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  ChatClient.terminateAll();
  await stack.close();
});

async function publish(creatorId: string, content = 'First post'): Promise<string> {
  const postId = randomUUID();
  const data = { postId, creatorId, title: 'Hello', content, mediaUrl: null, mediaType: null, isPublic: true };
  await stack.store.append(
    `post-${postId}`,
    [{ type: 'PostPublished', data: { ...data, publishedAt: new Date().toISOString() } }],
    { expectedRevision: 'no_stream' },
  );
  await eventually(
    () => stack.db('posts').where({ id: postId }).first(),
    (row) => !!row,
  );
  return postId;
}

const emailOf = async (userId: string) =>
  (await stack.db('users').where({ id: userId }).first('email')).email as string;
const login = async (userId: string) =>
  stack
    .agent()
    .post('/api/auth/login')
    .send({ email: await emailOf(userId), password: 'Passw0rd!' });
const report = (who: TestMember, targetType: string, targetId: string, reason = 'harassment') =>
  who.agent.post('/api/reports').send({ targetType, targetId, reason, details: 'Please look' }).expect(201);
const queued = async (staff: { agent: TestMember['agent'] }, query: string) =>
  (await staff.agent.get(`/api/admin/reports?${query}`).expect(200)).body.reports as ModerationReport[];

describe('moderation', () => {
  it('is for staff: 401 signed out, 403 for members, 400 bad filters or bodies, 404 unknown ids', async () => {
    const staff = await person(stack, 'admin');
    const member = await registerMember(stack, 'Mo');
    const paths: Array<[string, string, object]> = [
      ['get', '/api/admin/reports', {}],
      ['post', `/api/admin/reports/${randomUUID()}/resolve`, { action: 'dismiss', reason: 'x' }],
      ['post', `/api/admin/users/${member.userId}/suspend`, { days: 1, reason: 'x' }],
      ['post', `/api/admin/users/${member.userId}/ban`, { reason: 'x' }],
      ['post', `/api/admin/users/${member.userId}/reinstate`, { reason: 'x' }],
    ];
    for (const [method, path, body] of paths) {
      await (method === 'get' ? stack.agent().get(path) : stack.agent().post(path).send(body)).expect(401);
      const refused = await (method === 'get' ? member.agent.get(path) : member.agent.post(path).send(body)).expect(
        403,
      );
      expect(refused.body.error).toBe('Forbidden');
    }
    await staff.agent.get('/api/admin/reports?status=maybe').expect(400);
    await staff.agent.get('/api/admin/reports?targetType=planet').expect(400);
    await staff.agent.get('/api/admin/reports?limit=0').expect(400);
    const noDays = await staff.agent
      .post(`/api/admin/reports/${randomUUID()}/resolve`)
      .send({ action: 'suspend', reason: 'x' })
      .expect(400);
    expect(noDays.body.fields).toEqual({ days: 'Days are required to suspend' });
    await staff.agent.post(`/api/admin/reports/${randomUUID()}/resolve`).send({ action: 'dismiss' }).expect(400);
    await staff.agent
      .post(`/api/admin/reports/${randomUUID()}/resolve`)
      .send({ action: 'dismiss', reason: 'x' })
      .expect(404);
    await staff.agent.post(`/api/admin/users/${member.userId}/suspend`).send({ days: 0, reason: 'x' }).expect(400);
    await staff.agent.post(`/api/admin/users/${member.userId}/ban`).send({}).expect(400);
    await staff.agent.post(`/api/admin/users/${randomUUID()}/ban`).send({ reason: 'x' }).expect(404);
    await staff.agent.post(`/api/admin/users/${member.userId}/reinstate`).send({ reason: 'x' }).expect(409);
    await staff.agent.post(`/api/admin/users/${staff.userId}/ban`).send({ reason: 'x' }).expect(403);
  });

  it('lists reports with their context: the post or message text, the chat session, earlier reports; filters and pages', async () => {
    const staff = await person(stack, 'admin');
    const ana = await registerMember(stack, 'Ana');
    const bo = await registerMember(stack, 'Bo');
    const postId = await publish(bo.userId, 'Buy followers here');
    const sent = (
      await bo.agent.post('/api/messages').send({ receiverId: ana.userId, content: 'Send pics' }).expect(201)
    ).body;
    const roomId = `room-${randomUUID()}`;
    const startedAt = new Date(Date.now() - 90_000).toISOString();
    const endedAt = new Date().toISOString();
    await stack.store.append(
      `chatSession-${roomId}`,
      [
        {
          type: 'ChatSessionStarted',
          data: { roomId, user1Id: ana.userId, user2Id: bo.userId, mode: 'random', compatibilityScore: 0.5, startedAt },
        },
        {
          type: 'ChatSessionEnded',
          data: {
            roomId,
            user1Id: ana.userId,
            user2Id: bo.userId,
            endedBy: ana.userId,
            reason: 'left',
            endedAt,
            durationSeconds: 90,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await eventually(
      () => stack.db('chat_sessions').where({ room_id: roomId }).first(),
      (row) => !!row,
    );
    await report(ana, 'post', postId, 'spam');
    await report(ana, 'message', sent.id);
    await report(ana, 'chat_session', roomId);

    const all = (await queued(staff, 'status=open')).filter((r) => r.targetUser.id === bo.userId);
    expect(all.map((r) => r.targetType)).toEqual(['chat_session', 'message', 'post']);
    const [chat, message, post] = all;
    expect(post).toMatchObject({
      status: 'open',
      reason: 'spam',
      details: 'Please look',
      reporter: { id: ana.userId, name: 'Ana Test' },
      targetUser: {
        id: bo.userId,
        name: 'Bo Test',
        standing: { status: 'active' },
        earlierReports: 0,
        lastActions: [],
      },
      context: { kind: 'post', title: 'Hello', content: 'Buy followers here', removed: false },
      resolution: null,
    });
    expect(message.context).toMatchObject({ kind: 'message', content: 'Send pics', recipient: { id: ana.userId } });
    expect(message.targetUser.earlierReports).toBe(1);
    expect(chat.context).toEqual({
      kind: 'chat_session',
      participants: [
        { id: ana.userId, name: 'Ana Test' },
        { id: bo.userId, name: 'Bo Test' },
      ],
      mode: 'random',
      startedAt,
      endedAt,
      durationSeconds: 90,
    });
    expect(chat.targetUser.earlierReports).toBe(2);

    // Filters and pages: one post report at a time, newest first, then the next page.
    const posts = (await queued(staff, 'targetType=post')).filter((r) => r.targetType !== 'post');
    expect(posts).toEqual([]);
    const first = await staff.agent.get('/api/admin/reports?limit=1').expect(200);
    expect(first.body.reports).toHaveLength(1);
    const second = await staff.agent.get(`/api/admin/reports?limit=1&cursor=${first.body.nextCursor}`).expect(200);
    expect(second.body.reports[0].id).not.toBe(first.body.reports[0].id);
    expect(Date.parse(second.body.reports[0].createdAt)).toBeLessThanOrEqual(
      Date.parse(first.body.reports[0].createdAt),
    );

    // Resolving: dismissed once (a second time is 409); content removed hides the post.
    const dismissed = await staff.agent
      .post(`/api/admin/reports/${message.id}/resolve`)
      .send({ action: 'dismiss', reason: 'Not a violation' })
      .expect(200);
    expect(dismissed.body).toMatchObject({
      message: 'Report dismissed',
      report: {
        status: 'resolved',
        resolution: { action: 'dismiss', reason: 'Not a violation', staff: { id: staff.userId } },
      },
    });
    await staff.agent
      .post(`/api/admin/reports/${message.id}/resolve`)
      .send({ action: 'dismiss', reason: 'x' })
      .expect(409);
    await staff.agent
      .post(`/api/admin/reports/${chat.id}/resolve`)
      .send({ action: 'remove_content', reason: 'x' })
      .expect(400);
    const removed = await staff.agent
      .post(`/api/admin/reports/${post.id}/resolve`)
      .send({ action: 'remove_content', reason: 'Spam' })
      .expect(200);
    expect(removed.body.report.context).toMatchObject({ kind: 'post', removed: true });
    await ana.agent.get(`/api/posts/${postId}`).expect(404);
    const events = await stack.store.readStream(`reportsAgainst-${bo.userId}`);
    expect(events.map((e) => e.type)).toEqual([
      'ReportFiled',
      'ReportFiled',
      'ReportFiled',
      'ReportResolved',
      'ReportResolved',
      'ContentRemoved',
    ]);
    expect(events[5].data).toMatchObject({ targetType: 'post', targetId: postId, staffId: staff.userId });
    // The open filter no longer shows them; the chat report has the removal among the last actions.
    const open = (await queued(staff, 'status=open')).filter((r) => r.targetUser.id === bo.userId);
    expect(open.map((r) => r.id)).toEqual([chat.id]);
    expect(open[0].targetUser.lastActions).toEqual([
      {
        action: 'remove_content',
        reason: 'Spam',
        staff: { id: staff.userId, name: 'admin Test' },
        days: null,
        at: expect.any(String),
      },
    ]);
  });

  it('a removed message shows both parties the removal notice, not its text, and cannot be unlocked', async () => {
    const staff = await person(stack, 'admin');
    const ana = await registerMember(stack, 'Ana');
    const bo = await registerMember(stack, 'Bo');
    const free = (
      await bo.agent.post('/api/messages').send({ receiverId: ana.userId, content: 'Send pics' }).expect(201)
    ).body;
    await report(ana, 'message', free.id);
    const [queuedReport] = (await queued(staff, 'targetType=message')).filter((r) => r.targetUser.id === bo.userId);
    await staff.agent
      .post(`/api/admin/reports/${queuedReport.id}/resolve`)
      .send({ action: 'remove_content', reason: 'Harassment' })
      .expect(200);

    for (const [viewer, other] of [
      [ana, bo],
      [bo, ana],
    ] as const) {
      const thread = await eventually(
        () => viewer.agent.get(`/api/messages/${other.userId}`).expect(200),
        (res) => res.body[0]?.removed === true,
      );
      expect(thread.body[0]).toMatchObject({ id: free.id, content: REMOVED_MESSAGE_TEXT, media: [] });
      expect(JSON.stringify(thread.body)).not.toContain('Send pics');
      const list = await viewer.agent.get('/api/conversations').expect(200);
      expect(JSON.stringify(list.body)).not.toContain('Send pics');
    }
    const refused = await ana.agent.post(`/api/messages/${free.id}/unlock`).expect(409);
    expect(refused.body.error).toMatch(/removed by Lively moderation/);
  });

  it('suspension ends sessions and open chats at once, sign-in says deactivated; reinstating lets them in again', async () => {
    const staff = await person(stack, 'admin');
    const cal = await registerMember(stack, 'Cal');
    const dee = await registerMember(stack, 'Dee');
    const c = await ChatClient.connect(stack.url, cal.token, cal.userId);
    const d = await ChatClient.connect(stack.url, dee.token, dee.userId);
    await Promise.all([c.next('connected'), d.next('connected')]);
    c.send({ type: 'join_queue', mode: 'random' });
    await c.next('waiting');
    d.send({ type: 'join_queue', mode: 'random' });
    await Promise.all([c.next('matched'), d.next('matched')]);
    await report(dee, 'user', cal.userId);
    const [filed] = (await queued(staff, 'targetType=user')).filter((r) => r.targetUser.id === cal.userId);

    const started = Date.now();
    const suspended = await staff.agent
      .post(`/api/admin/reports/${filed.id}/resolve`)
      .send({ action: 'suspend', days: 3, reason: 'Harassment' })
      .expect(200);
    expect(suspended.body.report.targetUser.standing).toEqual({
      status: 'suspended',
      suspendedUntil: expect.any(String),
      pendingReview: false,
    });
    // Within a couple of seconds the suspended member's socket says why and closes; the partner is told.
    expect(await c.next('error', 2000)).toEqual({ type: 'error', error: ACCOUNT_DEACTIVATED_TEXT });
    await eventually(
      async () => c.closed,
      (closed) => closed !== null,
      2000,
    );
    expect(c.closed?.code).toBe(4403);
    expect(Date.now() - started).toBeLessThan(4000);
    await d.next('skipped', 2000);
    // The next request has no session, sign-in is refused with SPEC §8's text, and no new socket opens.
    await cal.agent.get('/api/auth/user').expect(401);
    expect((await login(cal.userId)).body).toEqual({
      error: 'Account has been deactivated',
      code: 'ACCOUNT_DEACTIVATED',
    });
    await expect(ChatClient.connect(stack.url, cal.token, cal.userId).then((s) => s.next('error'))).resolves.toEqual({
      type: 'error',
      error: 'Unauthorized',
    });
    const [event] = await stack.store.readStream(`standing-${cal.userId}`);
    expect(event).toMatchObject({
      type: 'UserSuspended',
      data: {
        userId: cal.userId,
        staffId: staff.userId,
        reason: 'Harassment',
        days: 3,
        automatic: false,
        reportId: filed.id,
      },
    });

    await staff.agent
      .post(`/api/admin/users/${cal.userId}/reinstate`)
      .send({ reason: 'Appeal accepted' })
      .expect(200, {
        message: 'User reinstated',
        userId: cal.userId,
        standing: { status: 'active', suspendedUntil: null, pendingReview: false },
      });
    const back = await login(cal.userId);
    expect(back.status).toBe(200);
    c.close();
    d.close();
  });

  it("a ban hides the creator's posts everywhere and holds their payouts until reinstated", async () => {
    const staff = await person(stack, 'admin');
    const creator = await person(stack, 'creator');
    const viewer = await registerMember(stack, 'Viv');
    const postId = await publish(creator.userId, 'Ban me');
    await earn(stack, creator.userId, 5000, 9);
    const account = (
      await creator.agent
        .post('/api/payment-accounts')
        .send({
          type: 'bank_account',
          accountHolderName: 'Casey',
          bankAccountLast4: '6789',
          routingNumber: '110000000',
        })
        .expect(201)
    ).body;
    // Requested through the command (the route's own gates, two-factor and identity, are tested with payouts).
    const { payoutId } = await requestPayout(
      stack.store,
      creator.userId,
      { paymentAccountId: account.id, amountCents: 4500 },
      { actorId: creator.userId, now: new Date() },
    );
    const payout = { id: payoutId };
    await eventually(
      () => stack.db('payouts').where({ id: payoutId }).first(),
      (row) => !!row,
    );
    const feedHas = async () =>
      ((await viewer.agent.get('/api/posts/feed?limit=50').expect(200)).body.posts as { id: string }[]).some(
        (p) => p.id === postId,
      );
    expect(await feedHas()).toBe(true);

    const banned = await staff.agent
      .post(`/api/admin/users/${creator.userId}/ban`)
      .send({ reason: 'Fraud' })
      .expect(200);
    expect(banned.body).toEqual({
      message: 'User banned',
      userId: creator.userId,
      standing: { status: 'banned', suspendedUntil: null, pendingReview: false },
    });
    await creator.agent.get('/api/auth/user').expect(401);
    expect(await feedHas()).toBe(false);
    await viewer.agent.get(`/api/posts/${postId}`).expect(404);
    expect((await viewer.agent.get(`/api/creators/${creator.userId}/posts`)).body).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ id: postId })]),
    );
    // Finance sees why the payout waits, and cannot pay it out.
    const rows = (await staff.agent.get(`/api/admin/payouts?userId=${creator.userId}`).expect(200)).body.rows;
    expect(rows.find((r: { id: string }) => r.id === payout.id)).toMatchObject({
      status: 'pending',
      heldReason: PAYOUT_HELD_REASON,
    });
    const held = await staff.agent.post(`/api/admin/payouts/${payout.id}/process`).send({}).expect(409);
    expect(held.body).toEqual({ error: PAYOUT_HELD_REASON, code: 'PAYOUT_HELD' });

    await staff.agent.post(`/api/admin/users/${creator.userId}/reinstate`).send({ reason: 'Cleared' }).expect(200);
    expect(await feedHas()).toBe(true);
    const after = (await staff.agent.get(`/api/admin/payouts?userId=${creator.userId}`).expect(200)).body.rows;
    expect(after.find((r: { id: string }) => r.id === payout.id).heldReason).toBeNull();
  });
});
