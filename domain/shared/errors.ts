/** Why a command or query was refused; the API maps each kind to its HTTP status. */
export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payment_declined'
  | 'rate_limited'
  | 'unprocessable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Extra fields for the answer body (e.g. `fields`, `requiresAgeVerification`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const refuse = {
  validation: (message: string, fields: Record<string, string> = {}) =>
    new DomainError('validation', message, { fields }),
  notFound: (message: string) => new DomainError('not_found', message),
  conflict: (message: string, details?: Record<string, unknown>) => new DomainError('conflict', message, details),
  forbidden: (message: string, details?: Record<string, unknown>) => new DomainError('forbidden', message, details),
  unauthorized: (message = 'Unauthorized') => new DomainError('unauthorized', message),
  unprocessable: (message: string, details?: Record<string, unknown>) =>
    new DomainError('unprocessable', message, details),
  declined: (message: string) => new DomainError('payment_declined', message),
};
