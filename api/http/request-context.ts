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

/**
 * Gives every request an id (echoed as X-Request-Id), the client's id and a logger carrying both
 * (and the user's id once the session is known). The logger is made on first use: most requests
 * log only their closing line, which the base logger writes with the same fields.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    req.requestId = randomUUID();
    const clientId = req.get('X-Client-Id');
    req.clientId = clientId && CLIENT_ID.test(clientId) ? clientId : null;
    req.userId = null;
    req.sessionId = null;
    let log: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (log ??= logger.child({ requestId: req.requestId, clientId: req.clientId, userId: req.userId })),
      set: (value: Logger) => void (log = value),
    });
    res.setHeader('X-Request-Id', req.requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (!logger.isLevelEnabled('info')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId: req.requestId,
          clientId: req.clientId,
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
