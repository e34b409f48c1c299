import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Position } from '../domain/event-store/port';
import type { CommandContext } from '../domain/shared/command-handler';
import { refuse } from '../domain/shared/errors';
import { waitForProjections } from '../projections/engine/read-your-writes';
import type { PageRead } from '../projections/page-reads';
import type { AppDependencies } from './dependencies';
import { commandContext } from './http/command-context';
import { paramsChecker } from './http/params';
import { SessionStore } from './http/sessions';

/** What every route module gets: the dependencies and the shared request helpers. */
export interface Api {
  deps: AppDependencies;
  sessions: SessionStore;
  /** The command context of a request (actor, request and client ids, the clock's now). */
  context(req: Request): CommandContext;
  /**
   * Waits (bounded) until the read models have applied a command's position: all of them, or
   * only those the next query reads (`only`), which may wait longer, being fewer to catch up.
   */
  readYourWrites(position: Position | null, only?: { projections: string[]; timeoutMs: number }): Promise<boolean>;
  /**
   * Before an answer that shows some read models: waits up to 10 s for those (a busy server must
   * not answer what was true before the command), then briefly (2 s) for the rest.
   */
  readYourWritesShowing(position: Position | null, shown: string[]): Promise<void>;
  /**
   * A GET a page makes on load, answered with `answer`'s value as JSON. Its reads go through
   * `read`, whose first statement resolves the session too (projections/page-reads.ts): the
   * request reaches PostgreSQL once. `gates` run on the session's user before any row is used.
   * Such routes live on `pageReads`, which api/app.ts mounts ahead of the session middleware; a
   * request whose path parameters are malformed passes on to the routes mounted after it (a module
   * may own the path: `/creators/verification`), and else to `pageReadParams`, mounted after every
   * module, whose parameter check answers it as on every route.
   */
  pageRead(path: string, gates: RequestHandler[], answer: (req: Request, read: PageRead) => Promise<unknown>): void;
  pageReads: Router;
  pageReadParams: Router;
  /** 401 'Unauthorized' unless signed in. */
  requireUser: RequestHandler;
  /** Whether cookies must be Secure for this request (served over TLS). */
  secure(req: Request): boolean;
}

export function createApi(deps: AppDependencies): Api {
  const readYourWrites: Api['readYourWrites'] = (position, only) =>
    waitForProjections(deps.db, only?.projections ?? deps.projectionNames, position, only?.timeoutMs ?? 2000);
  const sessions = new SessionStore(deps.db);
  const pageReads = Router();
  const pageReadParams = Router();
  return {
    deps,
    sessions,
    pageReads,
    pageReadParams,
    pageRead(path, gates, answer) {
      const wellFormed = paramsChecker(path);
      pageReadParams.get(path, (_req, _res, next) => next()); // reached with well-formed parameters: never
      pageReads.get(path, async (req, res, next) => {
        if (!wellFormed(req.params)) return next('route');
        const reader = sessions.pageReader(req, () => passGates(gates, req, res));
        let body: unknown;
        try {
          body = await answer(req, reader.read);
        } finally {
          await reader.admitted(); // a refusal of the gates is the answer, whatever else failed
        }
        sendJson(res, body);
      });
    },
    context: (req) => commandContext(req, deps.clock()),
    readYourWrites,
    async readYourWritesShowing(position, shown) {
      await readYourWrites(position, { projections: shown, timeoutMs: 10_000 });
      await readYourWrites(position);
    },
    requireUser: (req, _res, next) => next(req.userId ? undefined : refuse.unauthorized()),
    secure: (req) => req.secure,
  };
}

/**
 * A page read's answer: the JSON, its type and length, written at once. Express's `res.json` also
 * parses and formats the content type, looks for a charset and checks freshness on every answer,
 * which a page read's hot path does not need (no ETags). The length is set here so that a HEAD,
 * whose body Node.js drops, still says it.
 */
function sendJson(res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Runs express gates (middleware that calls `next` with a refusal or nothing) in turn. */
async function passGates(gates: RequestHandler[], req: Request, res: Response): Promise<void> {
  for (const gate of gates)
    await new Promise<void>((resolve, reject) => {
      void gate(req, res, (refusal?: unknown) => (refusal ? reject(refusal) : resolve()));
    });
}
