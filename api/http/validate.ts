import type { ZodType } from 'zod';
import { DomainError } from '../../domain/shared/errors';

/**
 * Parses a request body (or query) with a contract schema. A bad one is a 400 with the
 * schema's messages per field: `{ error, code: "VALIDATION_ERROR", fields }`.
 */
export function parseWith<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '_';
    fields[field] ??= issue.message;
  }
  const first = result.error.issues[0]?.message ?? 'Invalid request';
  throw new DomainError('validation', first, { fields });
}
