import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** A new page starts at the top (client-side navigation keeps the old scroll position otherwise). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
