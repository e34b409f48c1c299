import type { Request, RequestHandler } from 'express';
import type { Position } from '../domain/event-store/port';
import type { CommandContext } from '../domain/shared/command-handler';
import { refuse } from '../domain/shared/errors';
import { waitForProjections } from '../projections/engine/read-your-writes';
import type { AppDependencies } from './dependencies';
import { commandContext } from './http/command-context';
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
  /** 401 'Unauthorized' unless signed in. */
  requireUser: RequestHandler;
  /** Whether cookies must be Secure for this request (served over TLS). */
  secure(req: Request): boolean;
}

export function createApi(deps: AppDependencies): Api {
  const readYourWrites: Api['readYourWrites'] = (position, only) =>
    waitForProjections(deps.db, only?.projections ?? deps.projectionNames, position, only?.timeoutMs ?? 2000);
  return {
    deps,
    sessions: new SessionStore(deps.db),
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
