import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer. Our policy has no part that depends on the request
 * (no nonces), so helmet runs once at start-up and each answer gets the headers it set in one
 * step, instead of through helmet's chain of a dozen middlewares per request.
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => void headers.set(name, String(value)),
    removeHeader: () => undefined, // X-Powered-By: the app never sets it (app.disable)
  };
  let done = false;
  helmet(options)({} as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('helmet did not set its headers synchronously');
  return (_req, res, next) => {
    res.setHeaders(headers);
    next();
  };
}
