import { createHmac } from 'node:crypto';
import { membershipStream } from '../../domain/membership/events';
import { registerMember, unsubscribedUser } from '../../ops/testing/chat-client';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

const SECRET = 'relay-secret-shared-with-coturn';
const TURN_URLS = ['turn:relay.example:3478?transport=udp', 'turn:relay.example:3478?transport=tcp'];

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    turn: { kind: 'external', urls: TURN_URLS, secret: SECRET, stunUrls: ['stun:relay.example:3478'] },
  });
}, 60_000);
afterAll(() => stack.close(), 30_000);

describe('GET /api/chat/ice-servers', () => {
  it('gives a member STUN and TURN with a credential that verifies with the secret and ends within the hour', async () => {
    const member = await registerMember(stack, 'Ice');
    const before = Math.floor(Date.now() / 1000);
    const res = await member.agent.get('/api/chat/ice-servers').expect(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.body.ttlSeconds).toBeLessThanOrEqual(3600);
    const [stun, turn] = res.body.iceServers;
    expect(stun).toEqual({ urls: ['stun:relay.example:3478'] });
    expect(turn.urls).toEqual(TURN_URLS);
    // TURN REST: `<expiry>:<userId>`, password base64(HMAC-SHA1(secret, username)).
    const [expiry, userId] = turn.username.split(':');
    expect(userId).toBe(member.userId);
    expect(Number(expiry)).toBeGreaterThan(before);
    expect(Number(expiry)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    expect(turn.credential).toBe(createHmac('sha1', SECRET).update(turn.username).digest('base64'));
  });

  it('is for signed-in, subscribed, age-verified members only, like the chat', async () => {
    await stack.agent().get('/api/chat/ice-servers').expect(401);
    const plain = await unsubscribedUser(stack);
    const unsubscribed = await plain.agent.get('/api/chat/ice-servers').expect(403);
    expect(unsubscribed.body.code).toBe('SUBSCRIPTION_REQUIRED');

    // Subscribed (paid by crypto, say) but never age-verified by a card.
    const now = new Date();
    await stack.store.append(
      membershipStream(plain.userId),
      [
        {
          type: 'MembershipActivated',
          data: {
            userId: plain.userId,
            periodStart: now.toISOString(),
            periodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
            source: 'crypto',
            paymentId: 'conversion-1',
            activatedAt: now.toISOString(),
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await stack.settle();
    const unverified = await plain.agent.get('/api/chat/ice-servers').expect(403);
    expect(unverified.body).toMatchObject({ code: 'AGE_VERIFICATION_REQUIRED', error: 'Age verification is required' });
  });
});

describe('GET /api/chat/ice-servers without a relay', () => {
  it('offers public STUN only', async () => {
    const bare = await startTestStack();
    try {
      const member = await registerMember(bare, 'Stun');
      const res = await member.agent.get('/api/chat/ice-servers').expect(200);
      expect(res.body.iceServers).toEqual([
        { urls: [expect.stringMatching(/^stun:/), expect.anything(), expect.anything()] },
      ]);
    } finally {
      await bare.close();
    }
  }, 60_000);
});
