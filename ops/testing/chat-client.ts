import { createHash, randomBytes, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { ServerMessage } from '../../domain/contracts/chat';
import type { TestStack } from './harness';

/** Test people and sockets for the chat tests (server and benchmark). */

export interface TestMember {
  userId: string;
  token: string;
  agent: ReturnType<TestStack['agent']>;
}

let counter = 0;

/** A subscribed, age-verified member, registered through the real API (sandbox card token). */
export async function registerMember(stack: TestStack, firstName = 'Member'): Promise<TestMember> {
  const agent = stack.agent();
  const email = `${firstName.toLowerCase()}-${Date.now()}-${++counter}@example.com`;
  const res = await agent.post('/api/auth/register').send({
    firstName,
    lastName: 'Test',
    email,
    password: 'Passw0rd!',
    confirmPassword: 'Passw0rd!',
    paymentToken: `dev_tok_${randomUUID()}`,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('lively.sid='));
  const token = decodeURIComponent(cookie!.split(';')[0].slice('lively.sid='.length));
  // On a busy machine the users read model may lag the answer: wait for the member's row.
  let row: { id: string; subscription_status: string; age_verified: boolean } | undefined;
  for (let i = 0; i < 400; i++) {
    row = await stack.db('users').where({ email }).first('id', 'subscription_status', 'age_verified');
    if (row?.subscription_status === 'active' && row.age_verified) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { userId: row!.id, token, agent };
}

/** A registered user without a subscription (only UserRegistered), signed in. */
export async function unsubscribedUser(stack: TestStack): Promise<TestMember> {
  const userId = randomUUID();
  await stack.store.append(
    `user-${userId}`,
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email: `plain-${userId}@example.com`,
          firstName: 'Plain',
          lastName: 'User',
          passwordHash: 'x',
          gatewayCustomerId: 'cus_x',
          cardLast4: '4242',
          registeredAt: new Date().toISOString(),
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  for (let i = 0; i < 200 && !(await stack.db('users').where({ id: userId }).first()); i++)
    await new Promise((r) => setTimeout(r, 50));
  const token = randomBytes(32).toString('base64url');
  await stack.db('http_sessions').insert({
    id: createHash('sha256').update(token).digest('hex'),
    user_id: userId,
    expires_at: new Date(Date.now() + 3_600_000),
  });
  return { userId, token, agent: stack.agent().set('Cookie', `lively.sid=${token}`) };
}

/** A chat socket that records every server message, with a way to wait for the next of a type. */
export class ChatClient {
  readonly messages: ServerMessage[] = [];
  private waiters: { type: string; resolve: (m: ServerMessage) => void; from: number }[] = [];
  closed: { code: number; reason: string } | null = null;
  private readonly taken = new Set<number>();

  /** Every socket opened, so a test can end them all before stopping the stack (an open proxied socket holds the HTTP server's close). */
  static readonly opened = new Set<WebSocket>();

  static terminateAll(): void {
    for (const ws of ChatClient.opened) ws.terminate();
    ChatClient.opened.clear();
  }

  private constructor(readonly ws: WebSocket) {
    ChatClient.opened.add(ws);
    ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as ServerMessage;
      const index = this.messages.push(message) - 1;
      const waiter = this.waiters.find((w) => w.type === message.type && index >= w.from);
      if (waiter) {
        this.taken.add(index);
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  /** A socket as the site's own page opens it (its Origin is `url`, unless `origin` says otherwise; null: none). */
  static connect(url: string, token: string | null, userId: string, origin: string | null = url): Promise<ChatClient> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (token) headers.Cookie = `lively.sid=${token}`;
      if (origin !== null) headers.Origin = origin;
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/chat?userId=${encodeURIComponent(userId)}`, {
        headers,
      });
      const client = new ChatClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (req, res) => {
        // ws leaves a refused handshake's request open: end it, or the test run never exits.
        res.resume();
        req.destroy();
        reject(new Error(`upgrade refused: ${res.statusCode}`));
      });
      ws.on('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message of `type` at or after index `since` not yet taken by an earlier call (waits for it). */
  next<T extends ServerMessage['type']>(
    type: T,
    timeoutMs = 5000,
    since = 0,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const index = this.messages.findIndex((m, i) => i >= since && m.type === type && !this.taken.has(i));
    if (index >= 0) {
      this.taken.add(index);
      return Promise.resolve(this.messages[index] as Extract<ServerMessage, { type: T }>);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(since))}`)),
        timeoutMs,
      );
      this.waiters.push({
        type,
        from: since,
        resolve: (m) => (clearTimeout(timer), resolve(m as Extract<ServerMessage, { type: T }>)),
      });
    });
  }

  close(): void {
    this.ws.close();
  }
}
