import { CHAT_ERRORS, type ServerMessage } from '../domain/contracts/chat';
import { comparePositions } from '../domain/event-store/port';
import { startTestStack, type TestStack } from '../ops/testing/harness';
import { eventually as waitFor } from '../ops/testing/eventually';
import { compileProfile } from './compatibility';
import { MAX_MESSAGE_BYTES, startRealtimeServer } from './server';
import { ChatClient, registerMember, unsubscribedUser, type TestMember } from '../ops/testing/chat-client';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(async () => {
  ChatClient.terminateAll();
  await stack.close();
}, 30_000);

/** The realtime service's effects show within seconds: these waits give up after 10 s. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000) =>
  waitFor(read, done, timeoutMs);

async function withProfile(
  member: TestMember,
  displayName: string,
  genderIdentity: string,
  lookingFor: string[],
  interests: string[],
) {
  const profile = await member.agent.post('/api/profile').send({
    displayName,
    age: 30,
    location: 'Austin, TX',
    genderIdentity,
    sexualOrientation: 'bisexual',
    relationshipType: ['dating'],
    interests,
  });
  expect(profile.status).toBe(200);
  const preferences = await member.agent.post('/api/preferences').send({
    ageRangeMin: 18,
    ageRangeMax: 60,
    maxDistance: 25,
    lookingForGenders: lookingFor,
    experienceLevel: 'intermediate',
  });
  expect(preferences.status).toBe(200);
  return member;
}

const connect = (member: TestMember) => ChatClient.connect(stack.url, member.token, member.userId);

describe('chat socket', () => {
  it('refuses a socket without a session, with a stale session, or for another user', async () => {
    const member = await registerMember(stack, 'Solo');
    await expect(ChatClient.connect(stack.url, null, member.userId)).rejects.toThrow('upgrade refused: 401');
    // The session is checked right after the upgrade: the socket says why and closes.
    for (const [token, userId, error, code] of [
      [member.token, '00000000-0000-4000-8000-000000000000', 'Forbidden', 4403],
      ['not-a-session', member.userId, 'Unauthorized', 4401],
    ] as const) {
      const client = await ChatClient.connect(stack.url, token, userId);
      client.send({ type: 'join_queue', mode: 'random' }); // held, then dropped with the socket
      expect(await client.next('error')).toEqual({ type: 'error', error });
      await eventually(
        async () => client.closed,
        (closed) => closed !== null,
      );
      expect(client.closed?.code).toBe(code);
      expect(client.messages.some((m) => m.type === 'connected' || m.type === 'waiting')).toBe(false);
    }
    expect(stack.realtime.stats().waiting).toBe(0);
  });

  it('refuses with 403 a socket opened from another site (Origin), as mutating HTTP calls are', async () => {
    const member = await registerMember(stack, 'Origin');
    // Through the web origin's /ws/ proxy, with the member's own cookie: only the Origin differs.
    await expect(ChatClient.connect(stack.url, member.token, member.userId, 'https://evil.example')).rejects.toThrow(
      'upgrade refused: 403',
    );
    await expect(
      ChatClient.connect(stack.url, member.token, member.userId, stack.url.replace('127.0.0.1', 'localhost')),
    ).rejects.toThrow('upgrade refused: 403');
    await expect(ChatClient.connect(stack.url, member.token, member.userId, null)).rejects.toThrow(
      'upgrade refused: 403',
    );
    const own = await ChatClient.connect(stack.url, member.token, member.userId);
    expect((await own.next('connected')).type).toBe('connected');
    own.close();
  });

  it('keeps a socket open after its session was checked in the database (uWS#1928), and runs messages sent before that', async () => {
    // Regression: an upgrade completed after an await inside res.cork() could be closed by uWS
    // right after open (1006), most often the first socket of a process.
    const members = await Promise.all(['P1', 'P2', 'P3', 'P4'].map((name) => registerMember(stack, name)));
    const clients = await Promise.all(
      members.map(async (member) => {
        const client = await ChatClient.connect(stack.url, member.token, member.userId);
        client.send({ type: 'heartbeat' }); // before `connected`: held until the session is checked
        return client;
      }),
    );
    for (const client of clients) await client.next('heartbeat_ack');
    await new Promise((r) => setTimeout(r, 1500));
    expect(clients.map((c) => c.closed)).toEqual(clients.map(() => null));
    for (const client of clients) {
      expect(client.messages[0].type).toBe('connected');
      client.send({ type: 'heartbeat' });
      await client.next('heartbeat_ack');
      client.close();
    }
  });

  it('shows a member online while their chat socket is open (user_profiles.is_online, from presence events)', async () => {
    const eve = await withProfile(await registerMember(stack, 'Eve'), 'Evie', 'woman', ['man'], ['Music']);
    const isOnline = () =>
      stack.db('user_profiles').where({ user_id: eve.userId }).first('is_online', 'last_active_at');
    expect((await isOnline())?.is_online).toBe(false);
    const first = await connect(eve);
    await first.next('connected');
    expect((await eventually(isOnline, (row) => row?.is_online === true))?.is_online).toBe(true);
    // A second window replaces the first: still online, nothing recorded for the swap.
    const second = await connect(eve);
    await second.next('connected');
    await eventually(
      async () => first.closed,
      (closed) => closed !== null,
    );
    second.close();
    const offline = await eventually(isOnline, (row) => row?.is_online === false);
    expect(offline?.is_online).toBe(false);
    expect(offline?.last_active_at).not.toBeNull();
    const types = (await stack.store.readStream(`chatPresence-${eve.userId}`)).map((e) => e.type);
    expect(types).toEqual(['ChatMemberWentOnline', 'ChatMemberWentOffline']);
  });

  it('tells a user without a subscription why, then closes', async () => {
    const user = await unsubscribedUser(stack);
    const client = await connect(user);
    expect(await client.next('error')).toEqual({ type: 'error', error: CHAT_ERRORS.subscription });
    await eventually(
      async () => client.closed,
      (closed) => closed !== null,
    );
    expect(client.closed?.code).toBe(4003);
  });

  it('matches two members, relays signalling, survives bad input, and records the session', async () => {
    const ann = await withProfile(await registerMember(stack, 'Ann'), 'Annie', 'woman', ['man'], ['Music', 'Travel']);
    const bob = await withProfile(await registerMember(stack, 'Bob'), 'Bobby', 'man', ['woman'], ['Music']);
    const a = await connect(ann);
    const b = await connect(bob);
    expect(await a.next('connected')).toEqual({ type: 'connected', userId: ann.userId });

    a.send({ type: 'heartbeat' });
    await a.next('heartbeat_ack');
    a.send('{not json');
    expect(await a.next('error')).toEqual({ type: 'error', error: CHAT_ERRORS.malformed });
    const since = a.messages.length;
    a.send({ type: 'join_queue', mode: 'warp' });
    expect(await a.next('error', 5000, since)).toEqual({ type: 'error', error: CHAT_ERRORS.malformed });
    const since2 = a.messages.length;
    a.send({ type: 'offer', sessionId: 'x', data: 'y'.repeat(MAX_MESSAGE_BYTES) });
    expect(await a.next('error', 5000, since2)).toEqual({ type: 'error', error: CHAT_ERRORS.tooLarge });
    a.ws.send(Buffer.alloc(200 * 1024)); // above the socket's hard cap: that socket is closed, the service goes on
    await eventually(
      async () => a.closed,
      (c) => c !== null,
    );

    const a2 = await connect(ann);
    a2.send({ type: 'join_queue', mode: 'standard', filters: { ageRange: [18, 65], orientation: 'any' } });
    await a2.next('waiting');
    b.send({ type: 'join_queue', mode: 'standard', filters: { ageRange: [18, 65] } });
    const [ma, mb] = await Promise.all([a2.next('matched'), b.next('matched')]);
    expect(ma.sessionId).toBe(mb.sessionId);
    expect(ma.data.peer.displayName).toBe('Bobby');
    expect(mb.data.peer.displayName).toBe('Annie');
    expect(ma.data.compatibilityScore).toBe(mb.data.compatibilityScore);
    expect(ma.data.compatibilityScore).toBeGreaterThan(0);
    expect(ma.data.compatibilityScore).toBeLessThanOrEqual(1);
    expect([ma.data.isInitiator, mb.data.isInitiator].sort()).toEqual([false, true]);

    // Signalling goes to the partner, with the session id; a stale session's message is dropped.
    const sessionId = ma.sessionId;
    a2.send({ type: 'offer', sessionId, data: { type: 'offer', sdp: 'v=0' } });
    expect(await b.next('offer')).toEqual({ type: 'offer', sessionId, data: { type: 'offer', sdp: 'v=0' } });
    b.send({ type: 'answer', sessionId, data: { type: 'answer', sdp: 'v=0' } });
    await a2.next('answer');
    b.send({ type: 'ice_candidate', sessionId: 'stale', data: { candidate: 'x' } });
    b.send({ type: 'ice_candidate', sessionId, data: { candidate: 'y' } });
    expect((await a2.next('ice_candidate')).data).toEqual({ candidate: 'y' });

    // Skip: the partner gets `skipped` and is re-queued; the pair is not matched again for a while.
    const beforeSkip = a2.messages.length;
    b.send({ type: 'skip', sessionId });
    expect(await a2.next('skipped', 5000, beforeSkip)).toEqual({ type: 'skipped', sessionId });
    await a2.next('waiting', 5000, beforeSkip);
    const beforeRejoin = b.messages.length;
    b.send({ type: 'join_queue', mode: 'standard' });
    await b.next('waiting', 5000, beforeRejoin);

    const row = await eventually(
      () => stack.db('chat_sessions').where({ room_id: sessionId }).first(),
      (r) => r?.status === 'skipped',
    );
    expect(row).toMatchObject({
      user1_id: ann.userId,
      user2_id: bob.userId,
      status: 'skipped',
      end_reason: 'skipped',
      ended_by: bob.userId,
      mode: 'standard',
    });
    expect(row.duration_seconds).toBeGreaterThanOrEqual(0);
    expect(Number(row.compatibility_score)).toBeCloseTo(ma.data.compatibilityScore, 3);

    // Reports go through REST, by a participant only.
    expect((await bob.agent.post(`/api/chat/sessions/${sessionId}/report`).send({ reason: '' })).body.fields).toEqual({
      reason: 'Reason is required',
    });
    expect((await bob.agent.post(`/api/chat/sessions/${sessionId}/report`).send({ reason: 'Rude' })).status).toBe(201);
    const outsider = await registerMember(stack, 'Olga');
    expect((await outsider.agent.post(`/api/chat/sessions/${sessionId}/report`).send({ reason: 'x' })).status).toBe(
      404,
    );
    expect((await bob.agent.get('/api/chat/sessions')).body[0]).toMatchObject({
      roomId: sessionId,
      partnerId: ann.userId,
      status: 'skipped',
    });

    // Leaving: out of every queue; a disconnect is a leave.
    a2.send({ type: 'leave' });
    b.close();
    await eventually(
      async () => stack.realtime.stats(),
      (s) => s.waiting === 0 && s.inSessions === 0,
    );
    a2.close();
  }, 60_000);

  it('blocks the partner of a chat by its session id; that pair is not matched again', async () => {
    const fay = await registerMember(stack, 'Fay');
    const gus = await registerMember(stack, 'Gus');
    const f = await connect(fay);
    const g = await connect(gus);
    await Promise.all([f.next('connected'), g.next('connected')]);
    f.send({ type: 'join_queue', mode: 'random' });
    await f.next('waiting');
    g.send({ type: 'join_queue', mode: 'random' });
    const { sessionId } = await g.next('matched');
    // Right after the match: the route waits for the session the service is still writing.
    expect(
      (await fay.agent.post(`/api/chat/sessions/${sessionId}/block`).send({ reason: 'x'.repeat(501) })).body.fields,
    ).toEqual({ reason: 'Reason too long' });
    expect((await fay.agent.post(`/api/chat/sessions/${sessionId}/block`).send({ reason: 'Rude' })).status).toBe(201);
    const outsider = await registerMember(stack, 'Hal');
    expect((await outsider.agent.post(`/api/chat/sessions/${sessionId}/block`).send({})).status).toBe(404);
    expect((await fay.agent.get('/api/chat/blocks')).body).toEqual([
      expect.objectContaining({ userId: gus.userId, reason: 'Rude' }),
    ]);
    // Fay moves on; both wait, and are never matched with each other again.
    const before = g.messages.length;
    const fBefore = f.messages.length;
    f.send({ type: 'skip', sessionId });
    await g.next('skipped', 5000, before);
    f.send({ type: 'join_queue', mode: 'random' });
    await f.next('waiting', 5000, fBefore);
    await new Promise((r) => setTimeout(r, 300));
    expect(g.messages.slice(before).some((m) => m.type === 'matched')).toBe(false);
    f.close();
    g.close();
  });

  it('never matches a blocked pair, even when the block comes while both are connected', async () => {
    const cat = await registerMember(stack, 'Cat');
    const dan = await registerMember(stack, 'Dan');
    const c = await connect(cat);
    const d = await connect(dan);
    expect((await cat.agent.post('/api/chat/blocks').send({ userId: 'nope' })).body.fields).toEqual({
      userId: 'Invalid user id',
    });
    expect((await cat.agent.post('/api/chat/blocks').send({ userId: dan.userId, reason: 'spam' })).status).toBe(201);
    const blocks = await eventually(
      () => cat.agent.get('/api/chat/blocks'),
      (res) => res.body.length > 0,
    );
    expect(blocks.body).toEqual([expect.objectContaining({ userId: dan.userId, reason: 'spam' })]);
    // The service learns of the block from the event log.
    const block = await stack.lastAppended();
    const followed = await eventually(
      async () => stack.realtime.followed(),
      (position) => position !== null && comparePositions(position, block!) >= 0,
    );
    expect(comparePositions(followed!, block!)).toBeGreaterThanOrEqual(0);
    c.send({ type: 'join_queue', mode: 'random' });
    await c.next('waiting');
    d.send({ type: 'join_queue', mode: 'random' });
    await d.next('waiting');
    await new Promise((r) => setTimeout(r, 200));
    expect([...c.messages, ...d.messages].some((m: ServerMessage) => m.type === 'matched')).toBe(false);
    c.close();
    d.close();
  }, 30_000);

  it('matches a pair again as soon as the block is lifted, while both stay connected, unless the other still blocks', async () => {
    const eve = await registerMember(stack, 'Eve');
    const fox = await registerMember(stack, 'Fox');
    const e = await connect(eve);
    const f = await connect(fox);
    const serviceHasRead = async () => {
      const last = await stack.lastAppended();
      await eventually(
        async () => stack.realtime.followed(),
        (position) => position !== null && comparePositions(position, last!) >= 0,
      );
    };
    const bothJoin = async () => {
      e.send({ type: 'join_queue', mode: 'random' });
      await e.next('waiting');
      f.send({ type: 'join_queue', mode: 'random' });
    };
    const leaveBoth = async () => {
      e.send({ type: 'leave' });
      f.send({ type: 'leave' });
      await new Promise((r) => setTimeout(r, 100));
    };

    // Both block each other; Eve lifts hers: Fox's block still keeps them apart.
    expect((await eve.agent.post('/api/blocks').send({ userId: fox.userId })).status).toBe(201);
    expect((await fox.agent.post('/api/blocks').send({ userId: eve.userId })).status).toBe(201);
    expect((await eve.agent.delete(`/api/blocks/${fox.userId}`)).status).toBe(200);
    await serviceHasRead();
    await bothJoin();
    await f.next('waiting');
    await new Promise((r) => setTimeout(r, 200));
    expect([...e.messages, ...f.messages].some((m: ServerMessage) => m.type === 'matched')).toBe(false);
    await leaveBoth();

    // Fox lifts his too: from now on, on the same sockets, they are matched.
    expect((await fox.agent.delete(`/api/blocks/${eve.userId}`)).status).toBe(200);
    await serviceHasRead();
    await bothJoin();
    const [forEve, forFox] = await Promise.all([e.next('matched'), f.next('matched')]);
    expect(forEve.sessionId).toBe(forFox.sessionId);
    e.close();
    f.close();
  }, 30_000);
});

it('tells a member who is not age verified the SPEC text', async () => {
  const member = { userId: 'u1', displayName: 'U', profile: compileProfile(null, null), blocked: new Set<string>() };
  const server = await startRealtimeServer({
    port: 0,
    directory: {
      admit: async () => ({ ok: true, member, refusal: CHAT_ERRORS.ageVerification }),
      load: async () => null,
    },
  });
  const client = await ChatClient.connect(`http://127.0.0.1:${server.port}`, 'any', 'u1');
  expect(await client.next('error')).toEqual({
    type: 'error',
    error: 'Age Verification Required: You must verify your age before using the chat feature.',
  });
  client.close();
  await server.close();
});

it('takes only the configured origins when there are some (PUBLIC_ORIGIN)', async () => {
  const member = { userId: 'u1', displayName: 'U', profile: compileProfile(null, null), blocked: new Set<string>() };
  const server = await startRealtimeServer({
    port: 0,
    allowedOrigins: ['https://lively.example'],
    directory: { admit: async () => ({ ok: true, member, refusal: null }), load: async () => null },
  });
  const url = `http://127.0.0.1:${server.port}`;
  await expect(ChatClient.connect(url, 'any', 'u1')).rejects.toThrow('upgrade refused: 403'); // its own host is not listed
  const client = await ChatClient.connect(url, 'any', 'u1', 'https://lively.example');
  await client.next('connected');
  client.close();
  await server.close();
});

it("shows each partner the other's chat profile photos in the match", async () => {
  const members = {
    u1: {
      userId: 'u1',
      displayName: 'Una',
      photos: ['/api/media/p1/public/w640.webp', '/api/media/p2/public/w640.webp'],
    },
    u2: { userId: 'u2', displayName: 'Vic', photos: [] },
  };
  const server = await startRealtimeServer({
    port: 0,
    directory: {
      admit: async (_token, userId) => ({
        ok: true,
        member: { ...members[userId as 'u1' | 'u2'], profile: compileProfile(null, null), blocked: new Set<string>() },
        refusal: null,
      }),
      load: async () => null,
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  const una = await ChatClient.connect(url, 'any', 'u1');
  const vic = await ChatClient.connect(url, 'any', 'u2');
  await Promise.all([una.next('connected'), vic.next('connected')]);
  una.send({ type: 'join_queue', mode: 'random' });
  await una.next('waiting');
  vic.send({ type: 'join_queue', mode: 'random' });
  const [forUna, forVic] = await Promise.all([una.next('matched'), vic.next('matched')]);
  expect(forVic.data.peer).toEqual({ displayName: 'Una', photos: members.u1.photos });
  expect(forUna.data.peer).toEqual({ displayName: 'Vic', photos: [] });
  una.close();
  vic.close();
  await server.close();
});

it('keeps the newest socket of a member when session checks finish out of order', async () => {
  const member = { userId: 'u1', displayName: 'U', profile: compileProfile(null, null), blocked: new Set<string>() };
  const delays = [300, 0];
  const server = await startRealtimeServer({
    port: 0,
    directory: {
      admit: async () => {
        await new Promise((r) => setTimeout(r, delays.shift() ?? 0));
        return { ok: true, member, refusal: null };
      },
      load: async () => null,
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  const first = await ChatClient.connect(url, 'any', 'u1');
  const second = await ChatClient.connect(url, 'any', 'u1');
  await second.next('connected');
  expect(await first.next('error')).toEqual({ type: 'error', error: 'Chat was opened in another window.' });
  await eventually(
    async () => first.closed,
    (closed) => closed !== null,
  );
  expect(first.closed?.code).toBe(4000);
  second.send({ type: 'heartbeat' });
  await second.next('heartbeat_ack');
  expect(second.closed).toBeNull();
  second.close();
  await server.close();
});

it('limits joins and skips per member per minute, answering with an error and doing nothing more', async () => {
  const member = (userId: string) => ({
    userId,
    displayName: userId,
    profile: compileProfile(null, null),
    blocked: new Set<string>(),
  });
  let now = Date.parse('2027-01-12T10:00:00Z');
  const server = await startRealtimeServer({
    port: 0,
    clock: () => new Date(now),
    rateLimits: { joinsPerMinute: 3, skipsPerMinute: 2 },
    directory: {
      admit: async (_token, userId) => ({ ok: true, member: member(userId!), refusal: null }),
      load: async () => null,
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  const ann = await ChatClient.connect(url, 'ann', 'ann');
  await ann.next('connected');
  for (let i = 0; i < 3; i++) {
    ann.send({ type: 'join_queue', mode: 'random' });
    await ann.next('waiting');
  }
  ann.send({ type: 'leave' });
  ann.send({ type: 'join_queue', mode: 'random' });
  expect(await ann.next('error')).toEqual({ type: 'error', error: CHAT_ERRORS.tooManyJoins });
  expect(server.stats().waiting).toBe(0); // the refused join queued no one

  // Another member has limits of their own. Skips: two a minute here (nothing to skip still counts).
  const bob = await ChatClient.connect(url, 'bob', 'bob');
  await bob.next('connected');
  bob.send({ type: 'skip' });
  bob.send({ type: 'skip' });
  // A third of a minute later Ann may join once more (Bob's skips are not back yet: one per 30 s).
  now += 20_000;
  ann.send({ type: 'join_queue', mode: 'random' });
  await ann.next('waiting');
  bob.send({ type: 'join_queue', mode: 'random' });
  const matched = await bob.next('matched');
  bob.send({ type: 'skip', sessionId: matched.sessionId });
  expect(await bob.next('error')).toEqual({ type: 'error', error: CHAT_ERRORS.tooManySkips });
  expect(server.stats().inSessions).toBe(2); // the refused skip ended nothing
  expect(ann.messages.some((m) => m.type === 'skipped')).toBe(false);
  expect(CHAT_ERRORS.tooManySkips).toBe('Too many skips in a minute. Please wait a moment before skipping again.');
  expect(CHAT_ERRORS.tooManyJoins).toBe('Too many chat searches in a minute. Please wait a moment and try again.');
  ann.close();
  bob.close();
  await server.close();
});
