import { TextDecoder, TextEncoder } from 'node:util';

/** Globals jsdom lacks that react-router and MUI expect. Import first in web component tests. */
Object.assign(globalThis, { TextEncoder, TextDecoder });
/** A media query's answer that never changes: every query matches, or none (the default). */
export const fixedMediaQuery = (matches: boolean) => (query: string) =>
  ({
    matches,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

if (!window.matchMedia) window.matchMedia = fixedMediaQuery(false);
