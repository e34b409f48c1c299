import { startTransition, useEffect, useState } from 'react';

/**
 * The first `count` items at once, the rest in a transition after the first render: a long
 * list's first render (and adopting a page the server rendered) costs what a phone's first screen
 * shows, and the rest is rendered without holding its main thread.
 */
export function useFirstScreen<T>(items: readonly T[], count = 3): readonly T[] {
  const [all, setAll] = useState(false);
  useEffect(() => startTransition(() => setAll(true)), []);
  return all ? items : items.slice(0, count);
}
