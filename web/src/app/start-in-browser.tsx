import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RENDERED_QUERIES_ID } from '@contracts/member-pages';
import { nextTask } from '@/lib/next-task';
import { rememberTimeZone } from '@/lib/time-zone-cookie';
import { App, knownVisitor, renderedWith } from './app';
import './rendered-endpoints';

/**
 * The app takes over the page in the browser (loaded by web/src/main.tsx): it adopts the HTML the
 * page came with, or renders into the loading shell. Filling the cache and adopting the page are
 * tasks of their own.
 */
export async function startApp(container: HTMLElement): Promise<void> {
  if (container.dataset.prerendered !== undefined) {
    // The page came as HTML built from these components: at build time for a visitor
    // (web/prerender.ts), or by the server for a member with the data it shows
    // (web/src/app/member-page.tsx), which goes into the cache first. React adopts it.
    // Hydrated as a transition: React yields to the browser every few milliseconds, so adopting
    // the page is no long task on a phone (the page is already painted meanwhile).
    const state = document.getElementById(RENDERED_QUERIES_ID);
    if (state?.textContent) renderedWith(JSON.parse(state.textContent));
    else knownVisitor();
    await nextTask();
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
  // Only the next visit's server render needs it.
  setTimeout(() => void rememberTimeZone(), 1000);
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
