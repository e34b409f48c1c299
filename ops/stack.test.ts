import WebSocket from 'ws';
import { startTestStack } from './testing/harness';

it('stops promptly while a member still holds a chat WebSocket through the /ws/ proxy', async () => {
  const stack = await startTestStack();
  const agent = stack.agent();
  const registered = await agent
    .post('/api/auth/register')
    .send({
      firstName: 'Ws',
      lastName: 'Holder',
      email: 'ws-holder@example.com',
      password: 'Passw0rdOk',
      confirmPassword: 'Passw0rdOk',
      paymentToken: 'dev_tok_stack',
    })
    .expect(201);
  const cookie = (registered.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const user = await agent.get('/api/auth/user').expect(200);
  const socket = new WebSocket(`${stack.url.replace('http', 'ws')}/ws/chat?userId=${user.body.id}`, {
    headers: { cookie, origin: stack.url },
  });
  const firstMessage = await new Promise<string>((resolve, reject) => {
    socket.once('message', (data) => resolve(String(data)));
    socket.once('error', reject);
  });
  expect(JSON.parse(firstMessage).type).toBeDefined();
  expect(socket.readyState).toBe(WebSocket.OPEN);
  const started = Date.now();
  await stack.close();
  expect(Date.now() - started).toBeLessThan(5000);
  socket.terminate();
});
