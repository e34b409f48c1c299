import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { UserRow } from '../../projections/users';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      clientId: string | null;
      log: Logger;
      /** The signed-in user's id, set by the session middleware. */
      userId: string | null;
      sessionId: string | null;
      /** The signed-in user's `users` row as the request began (loaded with the session). */
      userRow?: UserRow | null;
    }
  }
}

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Gives every request an id (echoed as X-Request-Id), the client's id and a logger carrying both. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    req.requestId = randomUUID();
    const clientId = req.get('X-Client-Id');
    req.clientId = clientId && CLIENT_ID.test(clientId) ? clientId : null;
    req.userId = null;
    req.sessionId = null;
    req.log = logger.child({ requestId: req.requestId, clientId: req.clientId });
    res.setHeader('X-Request-Id', req.requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          userId: req.userId,
        },
        'request',
      );
    });
    next();
  };
}
