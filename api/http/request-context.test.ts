import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger } from '../logger';
import { requestContext } from './request-context';

const capture = (level: string) => {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  return { lines, logger: createLogger({ level, destination }) };
};

function appWith(level: string) {
  const { lines, logger } = capture(level);
  const app = express();
  app.use(requestContext(logger));
  app.get('/quiet', (req, res) => {
    req.userId = 'user-1';
    res.json({ ok: true });
  });
  app.get('/noisy', (req, res) => {
    req.userId = 'user-2';
    req.log.warn({ step: 'payment' }, 'something to look at');
    res.status(409).json({ ok: false });
  });
  return { app, lines };
}

describe('requestContext', () => {
  it("closes every request with one line carrying its id, the client's id, the user, status and path", async () => {
    const { app, lines } = appWith('info');
    const res = await request(app).get('/quiet?secret=1').set('X-Client-Id', 'tab_1').expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      requestId: res.headers['x-request-id'],
      clientId: 'tab_1',
      userId: 'user-1',
      method: 'GET',
      path: '/quiet',
      status: 200,
    });
  });

  it("a handler's own line carries the request's id and user; a warn-level logger writes no closing line", async () => {
    const { app, lines } = appWith('warn');
    const res = await request(app).get('/noisy').expect(409);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'something to look at',
        step: 'payment',
        requestId: res.headers['x-request-id'],
        userId: 'user-2',
      }),
    ]);
  });
});
