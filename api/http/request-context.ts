import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { SessionUser } from '../../projections/users';

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
      userRow?: SessionUser | null;
    }
  }
}

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LOG = Symbol('the request logger, once made');
type WithLog = Express.Request & { [LOG]?: Logger };

/**
 * `req.log` for every request of an app, as one accessor on the app's request prototype: defined
 * on each request instead, the accessor gave every request an object shape of its own, and every
 * later read of a request field took the slow path.
 */
function defineRequestLog(prototype: object, logger: Logger): void {
  Object.defineProperty(prototype, 'log', {
    configurable: true,
    get(this: WithLog) {
      return (this[LOG] ??= logger.child({ requestId: this.requestId, clientId: this.clientId, userId: this.userId }));
    },
    set(this: WithLog, value: Logger) {
      this[LOG] = value;
    },
  });
}

/**
 * Gives every request an id (echoed as X-Request-Id), the client's id and a logger carrying both
 * (and the user's id once the session is known). The logger is made on first use: most requests
 * log only their closing line, which the base logger writes with the same fields.
 */
export function requestContext(logger: Logger): RequestHandler {
  const prototypes = new WeakSet<object>();
  return (req, res, next) => {
    const prototype = Object.getPrototypeOf(req) as object; // the app's request prototype
    if (!prototypes.has(prototype)) {
      defineRequestLog(prototype, logger);
      prototypes.add(prototype);
    }
    req.requestId = randomUUID();
    const clientId = req.get('X-Client-Id');
    req.clientId = clientId && CLIENT_ID.test(clientId) ? clientId : null;
    req.userId = null;
    req.sessionId = null;
    res.setHeader('X-Request-Id', req.requestId);
    if (!logger.isLevelEnabled('info')) return next(); // no closing line to write: no listener to add
    const started = process.hrtime.bigint();
    res.on('finish', () => {
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
