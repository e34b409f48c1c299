import { Router, type Request } from 'express';
import { clientLogSchema } from '../../domain/contracts/client-logs';
import { rateLimit } from '../http/rate-limit';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';
import { redact, redactText } from '../logger';

interface Limit {
  limit: number;
  windowMs: number;
}
export interface ClientLogRateLimits {
  perClient: Limit;
  perIp: Limit;
}

/** Defaults; a stack may replace them through the `clientLogRateLimits` port (tests). */
export const DEFAULT_CLIENT_LOG_RATE_LIMITS: ClientLogRateLimits = {
  // The web client sends only errors: a healthy one sends a few a minute.
  perClient: { limit: 30, windowMs: 60_000 },
  // Several clients behind one NAT share an IP.
  perIp: { limit: 120, windowMs: 60_000 },
};

/** Bounds of what one entry may put in the server log. */
export const CLIENT_LOG_CAPS = { message: 2000, string: 500, keys: 50, depth: 4, context: 4096 };

const RATE_LIMITED = 'Too many log entries. Please wait before sending more.';

/** Cuts a string to `max` characters, saying how much was dropped. */
const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} more characters]`;

/** The client's context, bounded in depth, keys and string length (after redaction, so a cut never splits a secret out of reach). */
function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cut(value, CLIENT_LOG_CAPS.string);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= CLIENT_LOG_CAPS.depth) return '[TOO DEEP]';
  const entries = Object.entries(value)
    .slice(0, CLIENT_LOG_CAPS.keys)
    .map(([key, field]) => [cut(key, 100), bounded(field, depth + 1)] as const);
  return Array.isArray(value) ? entries.map(([, field]) => field) : Object.fromEntries(entries);
}

function boundedContext(context: Record<string, unknown> | undefined): unknown {
  if (context === undefined) return undefined;
  const safe = bounded(redact(context));
  const size = JSON.stringify(safe).length;
  return size <= CLIENT_LOG_CAPS.context ? safe : { truncated: true, characters: size };
}

const clientKey = (req: Request) => (req.clientId ? req.clientId : null);

/**
 * Browser log entries land in the server log, tagged as the client's: rate limited per client
 * and per IP, bounded in size, with secrets redacted by field name and in free text.
 */
export function clientLogRoutes(api: Api): Router {
  const router = Router();
  const limits = {
    ...DEFAULT_CLIENT_LOG_RATE_LIMITS,
    ...(api.deps.ports.clientLogRateLimits as Partial<ClientLogRateLimits> | undefined),
  };
  const perIp = rateLimit(api.deps.db, { name: 'client-log:ip', ...limits.perIp, message: RATE_LIMITED });
  const perClient = rateLimit(api.deps.db, {
    name: 'client-log:client',
    ...limits.perClient,
    key: clientKey,
    message: RATE_LIMITED,
  });
  router.post('/logs/client', perIp, perClient, (req, res) => {
    const entry = parseWith(clientLogSchema, req.body);
    const fields = {
      source: 'client',
      context: boundedContext(entry.context),
      clientTime: entry.time && redactText(entry.time),
    };
    req.log[entry.level](fields, cut(redactText(entry.message), CLIENT_LOG_CAPS.message));
    res.status(204).end();
  });
  return router;
}
