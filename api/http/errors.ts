import type { ErrorRequestHandler, RequestHandler } from 'express';
import { WrongExpectedRevisionError } from '../../domain/event-store/port';
import { DomainError, type ErrorKind } from '../../domain/shared/errors';

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  payment_declined: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
};

const CODE: Record<ErrorKind, string> = {
  validation: 'VALIDATION_ERROR',
  unauthorized: 'UNAUTHORIZED',
  payment_declined: 'PAYMENT_DECLINED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  unprocessable: 'UNPROCESSABLE',
  rate_limited: 'RATE_LIMITED',
};

/** Body-parser failures are the client's: malformed JSON, a body too large, a bad encoding. */
function clientFault(error: unknown): { status: number; body: Record<string, unknown> } | null {
  const e = error as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') return { status: 400, body: { error: 'Request body is not valid JSON', code: 'BAD_JSON' } };
  if (e?.type === 'entity.too.large') return { status: 413, body: { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' } };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return { status: e.status, body: { error: 'Bad request', code: 'BAD_REQUEST' } };
  }
  return null;
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) return;
  if (error instanceof DomainError) {
    res.status(STATUS[error.kind]).json({ error: error.message, code: CODE[error.kind], ...error.details });
    return;
  }
  if (error instanceof WrongExpectedRevisionError) {
    res.status(409).json({ error: 'The record was changed by another request. Please try again.', code: 'CONCURRENT_UPDATE' });
    return;
  }
  const fault = clientFault(error);
  if (fault) {
    res.status(fault.status).json(fault.body);
    return;
  }
  req.log?.error({ err: error }, 'request failed');
  res.status(500).json({ error: 'Internal server error', code: 'INTERNAL' });
};

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ error: `No such endpoint: ${req.method} ${req.originalUrl.split('?')[0]}`, code: 'NOT_FOUND' });
};
