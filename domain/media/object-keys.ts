/**
 * What a storage key may look like, for every adapter: `/`-separated segments of letters,
 * digits, `.`, `_` and `-`, none starting with a dot. So no key names a parent folder, an
 * absolute path or a hidden file, and nothing stored can escape its root or bucket.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const MAX_KEY_LENGTH = 512;

function validSegments(path: string): boolean {
  return path.length > 0 && path.length <= MAX_KEY_LENGTH && path.split('/').every((s) => SEGMENT.test(s));
}

/** The key itself, or an error naming it as refused (a programming error, never user input). */
export function checkedKey(key: string): string {
  if (!validSegments(key)) throw new Error(`Refused storage key ${JSON.stringify(key)}`);
  return key;
}

/** A prefix is a key, optionally ending in `/` (a whole folder). */
export function checkedPrefix(prefix: string): string {
  checkedKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}
