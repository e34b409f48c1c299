import type { Request } from 'express';
import type { CommandContext } from '../../domain/shared/command-handler';

/** Who is acting and why, from the request: becomes the metadata of every event written. */
export function commandContext(req: Request, now: Date): CommandContext {
  return {
    actorId: req.userId,
    requestId: req.requestId,
    clientId: req.clientId,
    correlationId: req.requestId,
    now,
  };
}
