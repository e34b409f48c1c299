import { lazy, Suspense, useEffect, useState } from 'react';
import { hasToastKeptForReload, useToast } from './toast';

const LazyToaster = lazy(async () => ({ default: (await import('./toaster')).Toaster }));

/**
 * Mount once near the root: draws the toasts from the first one on (or at once when one was
 * kept for this page load), so their components are not part of every page's first load.
 */
export function ToastHost() {
  const { toasts: items } = useToast();
  const [needed, setNeeded] = useState(false);
  // After the first render: a page rendered on the server knew nothing of the kept toast.
  useEffect(() => {
    if (hasToastKeptForReload()) setNeeded(true);
  }, []);
  if (!needed && items.length) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  );
}
