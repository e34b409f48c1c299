import { useEffect } from 'react';

/** The browser tab's text for a page: "{title} · Lively", or just "Lively" without a title. */
export function documentTitle(title?: string): string {
  return title && title !== 'Lively' ? `${title} · Lively` : 'Lively';
}

/** Sets the tab title (see documentTitle) while the page is shown; restores the previous one after. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = documentTitle(title);
    return () => {
      document.title = previous;
    };
  }, [title]);
}
