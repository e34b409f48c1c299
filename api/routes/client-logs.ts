import { Router } from 'express';
import { clientLogSchema } from '../../domain/contracts/client-logs';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Browser log entries land in the server log, tagged as the client's, with secrets redacted. */
export function clientLogRoutes(_api: Api): Router {
  const router = Router();
  router.post('/logs/client', (req, res) => {
    const entry = parseWith(clientLogSchema, req.body);
    req.log[entry.level]({ source: 'client', context: entry.context, clientTime: entry.time }, entry.message);
    res.status(204).end();
  });
  return router;
}
