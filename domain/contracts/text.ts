import { z } from 'zod';

// In the browser zod validates without generated code: the site's CSP forbids eval, and zod's
// probe for it would be reported as a violation. (Every contract imports this module first.)
if (typeof window !== 'undefined') z.config({ jitless: true });

/**
 * Free text as every contract takes it. PostgreSQL cannot store a NUL character (in text or
 * jsonb) nor a lone UTF-16 surrogate (in jsonb, where events live): such text used to get as far
 * as the database and fail there with a 500. Refusing it at the edge makes it a 400 instead.
 */

export const TEXT_NOT_ALLOWED = 'Contains a character that is not allowed (a NUL or a broken character)';

// Without the `u` flag the expression sees UTF-16 code units, so it can find unpaired halves.
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string can be stored as it is (no NUL, every surrogate paired). */
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/**
 * A zod string that refuses NUL and lone surrogates; chain `.trim().min().max()` as usual.
 * `error` is the message for a missing or non-string value (the SPEC's "... is required").
 */
export const text = (params?: { error?: string }) => z.string(params).refine(isStorableText, TEXT_NOT_ALLOWED);
