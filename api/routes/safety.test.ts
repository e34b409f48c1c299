import { randomUUID } from 'node:crypto';
import { BLOCKED_INTERACTION, BLOCKED_MESSAGE, DUPLICATE_REPORT } from '../../domain/contracts/safety';
import { ChatClient, registerMember, type TestMember } from '../../ops/testing/chat-client';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually, person } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(120_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  ChatClient.terminateAll();
  await stack.close();
});

/** A public post of `creatorId`, written straight to the log. */
async function publish(creatorId: string): Promise<string> {
  const postId = randomUUID();
  await stack.store.append(
    `post-${postId}`,
    [
      {
        type: 'PostPublished',
        data: {
          postId,
          creatorId,
          title: 'Hello',
          content: 'First post',
          mediaUrl: null,
          mediaType: null,
          isPublic: true,
          publishedAt: new Date().toISOString(),
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  await eventually(
    () => stack.db('posts').where({ id: postId }).first(),
    (row) => !!row,
  );
  return postId;
}

const message = (from: TestMember, to: TestMember) =>
  from.agent.post('/api/messages').send({ receiverId: to.userId, content: 'Hi there' });

describe('blocks', () => {
  it('blocks, lists, unblocks: 400 bad input, 404 unknown user, 401 without a session', async () => {
    const ann = await registerMember(stack, 'Ann');
    const ben = await registerMember(stack, 'Ben');
    await stack.agent().get('/api/blocks').expect(401);
    await stack.agent().post('/api/blocks').send({ userId: ben.userId }).expect(401);
    expect((await ann.agent.post('/api/blocks').send({ userId: 'nope' }).expect(400)).body.fields).toEqual({
      userId: 'Invalid user id',
    });
    expect((await ann.agent.post('/api/blocks').send({}).expect(400)).body.fields).toEqual({
      userId: 'User id is required',
    });
    await ann.agent
      .post('/api/blocks')
      .send({ userId: ben.userId, reason: 'x'.repeat(501) })
      .expect(400);
    expect((await ann.agent.post('/api/blocks').send({ userId: randomUUID() }).expect(404)).body.error).toBe(
      'User not found',
    );
    expect((await ann.agent.post('/api/blocks').send({ userId: ann.userId }).expect(400)).body.error).toBe(
      'You cannot block yourself',
    );

    expect((await ann.agent.post('/api/blocks').send({ userId: ben.userId, reason: 'Rude' }).expect(201)).body).toEqual(
      {
        message: 'User blocked',
        userId: ben.userId,
      },
    );
    await ann.agent.post('/api/blocks').send({ userId: ben.userId }).expect(201); // once: nothing new
    const list = (await ann.agent.get('/api/blocks').expect(200)).body;
    expect(list).toEqual([{ userId: ben.userId, name: 'Ben Test', reason: 'Rude', createdAt: expect.any(String) }]);
    // One block list: the chat's route shows the same.
    expect((await ann.agent.get('/api/chat/blocks').expect(200)).body).toEqual(list);

    await ann.agent.delete(`/api/blocks/${ben.userId}`).expect(200, { message: 'User unblocked', userId: ben.userId });
    expect((await ann.agent.delete(`/api/blocks/${ben.userId}`).expect(404)).body.error).toBe(
      'This user is not blocked',
    );
    await ann.agent.delete('/api/blocks/not-a-uuid').expect(404);
    expect((await ann.agent.get('/api/blocks').expect(200)).body).toEqual([]);
  });

  it("counts a block made through the chat's older event, and lifts it", async () => {
    const cy = await registerMember(stack, 'Cy');
    const di = await registerMember(stack, 'Di');
    await stack.store.append(
      `chatMember-${cy.userId}`,
      [
        {
          type: 'ChatUserBlocked',
          data: { blockerId: cy.userId, blockedId: di.userId, reason: 'old', blockedAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'any' },
    );
    const list = await eventually(
      () => cy.agent.get('/api/blocks'),
      (res) => res.body.length === 1,
    );
    expect(list.body[0]).toMatchObject({ userId: di.userId, reason: 'old' });
    expect((await message(di, cy).expect(403)).body.error).toBe(BLOCKED_MESSAGE);
    await cy.agent.delete(`/api/blocks/${di.userId}`).expect(200);
    await message(di, cy).expect(201);
  });

  it('a blocked pair cannot message each other, either way; after unblocking they can', async () => {
    const eve = await registerMember(stack, 'Eve');
    const fin = await registerMember(stack, 'Fin');
    await message(fin, eve).expect(201);
    await eve.agent.post('/api/blocks').send({ userId: fin.userId }).expect(201);
    const refused = await message(fin, eve).expect(403);
    expect(refused.body).toEqual({ error: BLOCKED_MESSAGE, code: 'BLOCKED' });
    expect((await message(eve, fin).expect(403)).body.error).toBe(BLOCKED_MESSAGE);
    await eve.agent.delete(`/api/blocks/${fin.userId}`).expect(200);
    await message(fin, eve).expect(201);
  });

  it("the blocked member cannot like or comment on the blocker's posts; others can", async () => {
    const creator = await person(stack, 'creator');
    const postId = await publish(creator.userId);
    const gil = await registerMember(stack, 'Gil');
    const hal = await registerMember(stack, 'Hal');
    await creator.agent.post('/api/blocks').send({ userId: gil.userId }).expect(201);
    expect((await gil.agent.post(`/api/posts/${postId}/like`).expect(403)).body.error).toBe(BLOCKED_INTERACTION);
    expect(
      (await gil.agent.post(`/api/posts/${postId}/comments`).send({ content: 'Hey' }).expect(403)).body.error,
    ).toBe(BLOCKED_INTERACTION);
    await hal.agent.post(`/api/posts/${postId}/like`).expect(200, { liked: true, count: 1 });
    await hal.agent.post(`/api/posts/${postId}/comments`).send({ content: 'Hey' }).expect(201);
    await creator.agent.delete(`/api/blocks/${gil.userId}`).expect(200);
    await gil.agent.post(`/api/posts/${postId}/like`).expect(200, { liked: true, count: 2 });
  });

  it('a pair blocked through /api/blocks is never matched in chat, in either mode', async () => {
    const ivy = await registerMember(stack, 'Ivy');
    const jon = await registerMember(stack, 'Jon');
    // Blocked by the second member, before either connects (the list is read at admission).
    await jon.agent.post('/api/blocks').send({ userId: ivy.userId }).expect(201);
    const i = await ChatClient.connect(stack.url, ivy.token, ivy.userId);
    const j = await ChatClient.connect(stack.url, jon.token, jon.userId);
    await Promise.all([i.next('connected'), j.next('connected')]);
    for (const mode of ['random', 'standard'] as const) {
      i.send({ type: 'join_queue', mode });
      j.send({ type: 'join_queue', mode });
      await new Promise((r) => setTimeout(r, 300));
      expect([...i.messages, ...j.messages].some((m) => m.type === 'matched')).toBe(false);
      i.send({ type: 'leave' });
      j.send({ type: 'leave' });
    }
    i.close();
    j.close();
  });
});

describe('reports', () => {
  it('takes a report of a user, post, message or chat: 400 bad input, 404 unknown target, 409 a second open one', async () => {
    const kim = await registerMember(stack, 'Kim');
    const lou = await registerMember(stack, 'Lou');
    await stack.agent().post('/api/reports').send({}).expect(401);
    const bad = async (body: object, field: string) =>
      expect(Object.keys((await kim.agent.post('/api/reports').send(body).expect(400)).body.fields)).toEqual([field]);
    await bad({ targetType: 'planet', targetId: lou.userId, reason: 'spam' }, 'targetType');
    await bad({ targetType: 'user', targetId: lou.userId, reason: 'boring' }, 'reason');
    await bad({ targetType: 'user', targetId: 'nope', reason: 'spam' }, 'targetId');
    await bad({ targetType: 'chat_session', targetId: 'bad room!', reason: 'spam' }, 'targetId');
    await bad({ targetType: 'user', targetId: lou.userId, reason: 'spam', details: 'x'.repeat(1001) }, 'details');
    expect(
      (
        await kim.agent
          .post('/api/reports')
          .send({ targetType: 'user', targetId: randomUUID(), reason: 'spam' })
          .expect(404)
      ).body.error,
    ).toBe('User not found');
    await kim.agent
      .post('/api/reports')
      .send({ targetType: 'post', targetId: randomUUID(), reason: 'spam' })
      .expect(404);
    await kim.agent
      .post('/api/reports')
      .send({ targetType: 'message', targetId: randomUUID(), reason: 'spam' })
      .expect(404);
    await kim.agent
      .post('/api/reports')
      .send({ targetType: 'chat_session', targetId: 'no-such-room', reason: 'spam' })
      .expect(404);
    expect(
      (
        await kim.agent
          .post('/api/reports')
          .send({ targetType: 'user', targetId: kim.userId, reason: 'spam' })
          .expect(400)
      ).body.error,
    ).toBe('You cannot report yourself');

    const body = { targetType: 'user', targetId: lou.userId, reason: 'harassment', details: 'Rude in chat' };
    const filed = await kim.agent.post('/api/reports').send(body).expect(201);
    expect(filed.body).toEqual({ message: 'Report received', reportId: expect.any(String) });
    const again = await kim.agent
      .post('/api/reports')
      .send({ ...body, reason: 'spam' })
      .expect(409);
    expect(again.body).toEqual({ error: DUPLICATE_REPORT, code: 'DUPLICATE_REPORT' });

    // A message: only its parties may report it, and it is about its sender.
    const sent = (await message(lou, kim).expect(201)).body;
    const outsider = await registerMember(stack, 'Max');
    await outsider.agent
      .post('/api/reports')
      .send({ targetType: 'message', targetId: sent.id, reason: 'spam' })
      .expect(404);
    await kim.agent.post('/api/reports').send({ targetType: 'message', targetId: sent.id, reason: 'spam' }).expect(201);
    const row = await stack.db('reports').where({ target_id: sent.id }).first();
    expect(row).toMatchObject({ reporter_id: kim.userId, target_user_id: lou.userId, target_type: 'message' });
  });

  it('suspends an account reported by 3 distinct members within the window (not by one member 3 times)', async () => {
    const target = await registerMember(stack, 'Ned');
    const email = (await stack.db('users').where({ id: target.userId }).first('email')).email;
    const postId = await publish(target.userId);
    const sent = (await message(target, await registerMember(stack, 'Ola')).expect(201)).body;
    void sent;
    const first = await registerMember(stack, 'Pia');
    // One member, three targets of the same account: one reporter.
    await first.agent
      .post('/api/reports')
      .send({ targetType: 'user', targetId: target.userId, reason: 'spam' })
      .expect(201);
    await first.agent.post('/api/reports').send({ targetType: 'post', targetId: postId, reason: 'spam' }).expect(201);
    await target.agent.get('/api/auth/user').expect(200);
    const second = await registerMember(stack, 'Quin');
    await second.agent
      .post('/api/reports')
      .send({ targetType: 'post', targetId: postId, reason: 'illegal' })
      .expect(201);
    await target.agent.get('/api/auth/user').expect(200);
    expect(await stack.db('users').where({ id: target.userId }).first('standing')).toEqual({ standing: 'active' });

    const third = await registerMember(stack, 'Rae');
    await third.agent
      .post('/api/reports')
      .send({ targetType: 'user', targetId: target.userId, reason: 'underage' })
      .expect(201);
    // At once: the session is gone, and signing in says the account is deactivated.
    await target.agent.get('/api/auth/user').expect(401);
    const login = await stack.agent().post('/api/auth/login').send({ email, password: 'Passw0rd!' }).expect(403);
    expect(login.body).toEqual({ error: 'Account has been deactivated', code: 'ACCOUNT_DEACTIVATED' });
    const suspended = (await stack.store.readStream(`standing-${target.userId}`)).map((e) => ({
      type: e.type,
      data: e.data,
    }));
    expect(suspended).toEqual([
      {
        type: 'UserSuspended',
        data: expect.objectContaining({
          userId: target.userId,
          staffId: null,
          automatic: true,
          until: null,
          days: null,
        }),
      },
    ]);
    expect((suspended[0].data as { reason: string }).reason).toBe('Reported by 3 members within 24 hours');
    // The process manager, following the log, suspends nothing twice.
    await stack.settle();
    expect(await stack.store.readStream(`standing-${target.userId}`)).toHaveLength(1);
  });
});
