import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RENDERED_QUERIES_ID } from '@contracts/member-pages';
import { installGlobalErrorLogging } from '@/lib/logger';
import { rememberTimeZone } from '@/lib/time-zone-cookie';
// The endpoints of the results a member's page comes with (app/member-page.tsx) must be known
// before those results go into the cache.
import '@/lib/creators-api';
import '@/lib/notifications-api';
import { App, knownVisitor, renderedWith } from './app/app';
import { appTheme } from './app/theme';

installGlobalErrorLogging();
void boot();

/**
 * On a phone each step below is a long task (evaluating the modules that imported this one,
 * making the theme, filling the cache): run one after another they were one task of half a
 * second on a throttled CPU, which blocked a tap for all of it. Each now runs in a task of its
 * own, so the browser can answer input between them; the time zone is named in a worker.
 */
async function boot(): Promise<void> {
  await nextTask();
  appTheme();
  await nextTask();
  const container = document.getElementById('root')!;
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

/** A new task: what follows runs after the browser has had its turn (input, paint). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
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
