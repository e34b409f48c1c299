import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret kept in `<dir>/<fileName>`: made by `generate` on first use, written readable by its
 * owner only, and read from the file ever after (trimmed). Processes starting at once agree on
 * one: each writes aside and links into place, and a link that finds the file taken loses.
 */
export function keptSecret(dir: string, fileName: string, generate: () => string): string {
  const file = join(dir, fileName);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // The folder's own mode is left alone: the data folder holds PostgreSQL's, run as another user under root.
  mkdirSync(dir, { recursive: true });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, generate(), { mode: 0o600 });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  return readFileSync(file, 'utf8').trim();
}

/** 32 random bytes as base64url text (43 characters). */
export const randomSecret = () => randomBytes(32).toString('base64url');
