import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * A long list's first `count` items, and the rest once the end of what is shown comes within a
 * screen of the viewport (put `more` on an element after the list): the first render (and
 * adopting a page the server rendered) costs what a phone's first screen shows, and the rest is
 * rendered, in a transition, only when the member scrolls towards it. Without
 * IntersectionObserver, the rest comes right after the first render.
 */
export function useFirstScreen<T>(
  items: readonly T[],
  count = 3,
): { shown: readonly T[]; more: RefObject<HTMLDivElement | null> } {
  const [all, setAll] = useState(false);
  const more = useRef<HTMLDivElement>(null);
  const rest = items.length > count && !all;
  useEffect(() => {
    if (!rest) return;
    const showAll = () => startTransition(() => setAll(true));
    const sentinel = more.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return showAll();
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && showAll(), {
      rootMargin: '100% 0px',
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [rest]);
  return { shown: all ? items : items.slice(0, count), more };
}
