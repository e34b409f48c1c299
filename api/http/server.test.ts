import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import express, { type Request, type Response } from 'express';
import { createHttpServer } from './server';

// V8's own answer to "do these two objects share a hidden class?" (%HaveSameMap), for this test only.
setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Two requests through `serve(app)`: what the route saw of each, and their answers. */
async function twoRequests(serve: (app: express.Express) => http.Server) {
  const app = express();
  const seen: Array<{ req: Request; res: Response }> = [];
  app.get('/hello/:name', (req, res) => {
    seen.push({ req, res });
    res.json({ hello: req.params.name, app: req.app === app });
  });
  const server = serve(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const answers = [];
    for (const name of ['ada', 'bob']) answers.push(await (await fetch(`${base}/hello/${name}`)).json());
    return { answers, seen };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('createHttpServer', () => {
  it('serves the app as express would, every request of one hidden class', async () => {
    const { answers, seen } = await twoRequests(createHttpServer);
    expect(answers).toEqual([
      { hello: 'ada', app: true },
      { hello: 'bob', app: true },
    ]);
    expect(sameHiddenClass(seen[0].req, seen[1].req)).toBe(true);
    expect(sameHiddenClass(seen[0].res, seen[1].res)).toBe(true);
  });

  // When express or V8 stop doing this, this fails, and createHttpServer can go.
  it('is needed: under a plain server, express gives every request a hidden class of its own', async () => {
    const { answers, seen } = await twoRequests((app) => http.createServer(app));
    expect(answers[1]).toEqual({ hello: 'bob', app: true });
    expect(sameHiddenClass(seen[0].req, seen[1].req)).toBe(false);
  });
});
