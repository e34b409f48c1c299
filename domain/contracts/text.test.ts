import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ADMIN_RESOURCES, adminListQuerySchema } from './admin';
import { isStorableText, text, TEXT_NOT_ALLOWED } from './text';

/**
 * Every contract refuses text PostgreSQL cannot store: each field of each exported object
 * schema gets a NUL and a lone surrogate, alone and inside a list. A field may refuse them with
 * its own message (an enumeration, a pattern, an email); it may not accept them.
 */

const BAD_TEXTS = {
  nul: 'A\u0000B',
  'lone high surrogate': 'A\ud800B',
  'lone low surrogate': '\udc00',
  // Shaped to pass a field's other checks: a URL, a password, an id.
  'nul in a URL': 'https://example.com/a\u0000b',
  'lone surrogate in a URL': 'https://example.com/\ud800',
  'nul in a password': 'Passw0rdOK\u0000',
  'nul in an id': '00000000-0000-4000-8000-00000000000\u0000',
};

function contractSchemas(): Array<[string, z.ZodType]> {
  const found: Array<[string, z.ZodType]> = [];
  const dir = __dirname;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads every contract module found on disk
    const exports = require(path.join(dir, file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports))
      if (value instanceof z.ZodType) found.push([`${file} ${name}`, value]);
  }
  for (const resource of ADMIN_RESOURCES)
    found.push([`admin.ts adminListQuerySchema(${resource})`, adminListQuerySchema(resource)]);
  return found;
}

/** The field names of an object schema, through refinements and pipes. */
function fieldsOf(schema: z.ZodType): string[] {
  const def = (
    schema as unknown as { def: { type: string; shape?: Record<string, unknown>; in?: z.ZodType; schema?: z.ZodType } }
  ).def;
  if (def.type === 'object') return Object.keys(def.shape ?? {});
  if (def.type === 'pipe' && def.in) return fieldsOf(def.in);
  return [];
}

/** A field accepted the bad text when no issue points at it (or inside it). */
function accepts(schema: z.ZodType, field: string, value: unknown): boolean {
  const result = schema.safeParse({ [field]: value });
  if (result.success) return true;
  return !result.error.issues.some((issue) => issue.path[0] === field);
}

describe('the shared text type', () => {
  it('refuses NUL and lone surrogates and keeps paired ones (emoji)', () => {
    expect(isStorableText('Zoë 💥 ok')).toBe(true);
    for (const bad of Object.values(BAD_TEXTS)) expect(isStorableText(bad)).toBe(false);
    expect(isStorableText('💥'.slice(0, 1))).toBe(false);
    expect(isStorableText('💥'.slice(1))).toBe(false);
    const result = text({ error: 'Name is required' }).trim().min(1, 'Name is required').safeParse('A\u0000B');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(TEXT_NOT_ALLOWED);
    expect(text({ error: 'Name is required' }).safeParse(undefined).error?.issues[0].message).toBe('Name is required');
  });

  const schemas = contractSchemas();
  const cases = schemas.flatMap(([name, schema]) => fieldsOf(schema).map((field) => [name, field, schema] as const));

  it('finds the contracts and their fields', () => {
    expect(schemas.length).toBeGreaterThan(20);
    expect(cases.map(([name, field]) => `${name}.${field}`)).toEqual(
      expect.arrayContaining(['accounts.ts registerSchema.firstName', 'posts.ts commentSchema.content']),
    );
  });

  it.each(schemas)('%s refuses bad text in every field at once without throwing', (_name, schema) => {
    // Zod runs object-level checks even after a field was refused: they must not trip over the raw text.
    for (const bad of Object.values(BAD_TEXTS))
      expect(schema.safeParse(Object.fromEntries(fieldsOf(schema).map((field) => [field, bad]))).success).toBe(false);
  });

  it.each(cases.map(([name, field, schema]) => [`${name}.${field}`, field, schema] as const))(
    '%s never accepts a NUL or a lone surrogate',
    (_label, field, schema) => {
      const accepted = Object.entries(BAD_TEXTS).flatMap(([kind, bad]) => [
        ...(accepts(schema, field, bad) ? [kind] : []),
        ...(accepts(schema, field, [bad]) ? [`${kind} in a list`] : []),
      ]);
      expect(accepted).toEqual([]);
    },
  );
});
