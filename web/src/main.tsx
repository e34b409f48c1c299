import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { installGlobalErrorLogging } from '@/lib/logger';
import { App, knownVisitor } from './app/app';

installGlobalErrorLogging();

const container = document.getElementById('root')!;
if (container.dataset.prerendered !== undefined) {
  // The page came as HTML built from these components (web/prerender.ts): React adopts it.
  knownVisitor();
  hydrateRoot(container, <App />);
} else {
  // Rendered as a transition: React yields to the browser every few milliseconds instead of
  // holding the main thread for the whole first render (a phone stays responsive while it loads).
  const root = createRoot(container);
  startTransition(() => root.render(<App />));
}
