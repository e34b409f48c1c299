const KEY = 'clientId';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
let cached: string | null = null;

/** 21 random characters of the URL-safe alphabet (64 of them: each byte's low 6 bits pick one evenly). */
const newId = () => Array.from(crypto.getRandomValues(new Uint8Array(21)), (byte) => ALPHABET[byte & 63]).join('');

/**
 * The browser's 21-character id (SPEC §3), kept in localStorage and reused across visits. Made
 * here rather than by a library's helper: the landing page logs with it and loads nothing else.
 */
export function clientId(): string {
  if (cached) return cached;
  try {
    const stored = window.localStorage.getItem(KEY);
    if (stored && /^[A-Za-z0-9_-]{21}$/.test(stored)) return (cached = stored);
    cached = newId();
    window.localStorage.setItem(KEY, cached);
  } catch {
    // Storage blocked (private mode): keep an id for this page's lifetime.
    cached ??= newId();
  }
  return cached;
}
