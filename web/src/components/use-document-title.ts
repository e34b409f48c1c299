import { useEffect } from 'react';

/** Sets the tab title as "{title} · Lively" while the page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title ? `${title} · Lively` : 'Lively';
    return () => {
      document.title = previous;
    };
  }, [title]);
}
