import type { RequestHandler } from 'express';
import { isStorableText, TEXT_NOT_ALLOWED } from '../../domain/contracts/text';
import { refuse } from '../../domain/shared/errors';

/**
 * The last line of defence behind the contracts: no request body or query carries a NUL or a
 * lone surrogate anywhere (values or keys, at any depth), so text a contract does not name yet
 * still cannot reach PostgreSQL and fail there with a 500. A JSON body must be an object: every
 * contract is one (express.json's strict mode already refuses null, strings and numbers).
 */
export const inputGuard: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
    return next(
      refuse.validation('The request body must be a JSON object', { _: 'The request body must be a JSON object' }),
    );
  }
  const fields = { ...unstorablePlaces(req.query), ...unstorablePlaces(req.body) };
  if (Object.keys(fields).length === 0) return next();
  next(refuse.validation(TEXT_NOT_ALLOWED, fields));
};

const MAX_REPORTED = 20;

/**
 * The places ("a.b.0") of strings that cannot be stored, each with the message. Walks with its
 * own stack, not recursion: a 100 kB body can nest arrays 50,000 deep.
 */
export function unstorablePlaces(input: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  const pending: Array<[unknown, string]> = [[input, '']];
  while (pending.length > 0 && Object.keys(found).length < MAX_REPORTED) {
    const [value, place] = pending.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) found[place || '_'] = TEXT_NOT_ALLOWED;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const where = place ? `${place}.${key}` : key;
        if (!isStorableText(key)) found[place || '_'] = TEXT_NOT_ALLOWED;
        else pending.push([inner, where]);
      }
    }
  }
  return found;
}
