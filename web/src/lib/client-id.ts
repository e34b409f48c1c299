import { nanoid } from '@reduxjs/toolkit';

const KEY = 'clientId';
let cached: string | null = null;

/** The browser's 21-character id (SPEC §3), kept in localStorage and reused across visits. */
export function clientId(): string {
  if (cached) return cached;
  try {
    const stored = window.localStorage.getItem(KEY);
    if (stored && /^[A-Za-z0-9_-]{21}$/.test(stored)) return (cached = stored);
    cached = nanoid();
    window.localStorage.setItem(KEY, cached);
  } catch {
    // Storage blocked (private mode): keep an id for this page's lifetime.
    cached ??= nanoid();
  }
  return cached;
}
