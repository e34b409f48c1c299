import express from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers';

const options: HelmetOptions = {
  contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null } },
  crossOriginEmbedderPolicy: false,
  hsts: true,
};

const headersOf = async (middleware: express.RequestHandler) => {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => res.json({ ok: true }));
  const { headers } = await request(app).get('/').expect(200);
  const { date: _date, ...rest } = headers;
  return rest;
};

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets, computed once', async () => {
    const ours = await headersOf(securityHeaders(options));
    expect(ours).toEqual(await headersOf(helmet(options)));
    expect(ours['content-security-policy']).toContain("img-src 'self' data:");
    expect(ours['strict-transport-security']).toBeDefined();
    expect(ours['x-content-type-options']).toBe('nosniff');
  });
});
