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

type Fault = { status: number; body: Record<string, unknown> };

const VALIDATION = 'VALIDATION_ERROR';

/** Whether the text is JSON at all: strict mode refuses `null`, `"text"` and `42` as if they were not. */
function isJson(text: unknown): boolean {
  try {
    JSON.parse(String(text));
    return true;
  } catch {
    return false;
  }
}

/**
 * Failures that are the client's, before any route runs: malformed JSON or a body that is not an
 * object (400 VALIDATION_ERROR, like a bad field), a body too large (413), a path with a broken
 * percent-escape (400), other body-parser refusals (their own 4xx). Every one is `{ error, code }`.
 */
function clientFault(error: unknown): Fault | null {
  const e = error as { type?: string; status?: number; body?: unknown; expose?: boolean; message?: string };
  if (e?.type === 'entity.parse.failed') {
    const message = isJson(e.body) ? 'The request body must be a JSON object' : 'The request body is not valid JSON';
    return { status: 400, body: { error: message, code: VALIDATION, fields: { _: message } } };
  }
  if (e?.type === 'entity.too.large')
    return { status: 413, body: { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' } };
  if (error instanceof URIError)
    return { status: 400, body: { error: 'The path has a malformed percent-escape', code: VALIDATION } };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return {
      status: e.status,
      body: {
        error: e.expose && e.message ? e.message : 'Bad request',
        code: e.status === 400 ? VALIDATION : 'BAD_REQUEST',
      },
    };
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
    res
      .status(409)
      .json({ error: 'The record was changed by another request. Please try again.', code: 'CONCURRENT_UPDATE' });
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
  res
    .status(404)
    .json({ error: `No such endpoint: ${req.method} ${req.originalUrl.split('?')[0]}`, code: 'NOT_FOUND' });
};
