import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { installGlobalErrorLogging } from '@/lib/logger';
import { App, knownVisitor } from './app/app';

installGlobalErrorLogging();

const container = document.getElementById('root')!;
if (container.dataset.prerendered !== undefined) {
  // The page came as HTML built from these components (web/prerender.ts): React adopts it.
  // Hydrated as a transition: React yields to the browser every few milliseconds, so adopting
  // the page is no long task on a phone (the page is already painted meanwhile).
  knownVisitor();
  startTransition(() => {
    hydrateRoot(container, <App />);
  });
  enableWhenHydrated(container);
} else {
  // Rendered as a transition: React yields to the browser every few milliseconds instead of
  // holding the main thread for the whole first render (a phone stays responsive while it loads).
  const root = createRoot(container);
  startTransition(() => root.render(<App />));
}

/**
 * The pre-rendered page's controls came disabled (web/prerender.ts): each is enabled once React
 * has adopted it (it then carries React's props), frame by frame, so nothing typed or clicked
 * before is lost. After 20 s whatever is left is enabled anyway.
 */
function enableWhenHydrated(root: HTMLElement): void {
  const started = performance.now();
  const adopted = (node: Element) => Object.keys(node).some((key) => key.startsWith('__reactProps$'));
  const check = () => {
    const waiting = [...root.querySelectorAll('[data-until-hydrated]')];
    const late = performance.now() - started > 20_000;
    for (const node of waiting.filter((candidate) => late || adopted(candidate))) {
      node.removeAttribute('disabled');
      node.removeAttribute('data-until-hydrated');
    }
    if (waiting.length && !late) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}
