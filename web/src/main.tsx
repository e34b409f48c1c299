import { loadChunk } from '@/lib/load-chunk';
import { installGlobalErrorLogging } from '@/lib/logger';
import { nextTask } from '@/lib/next-task';

installGlobalErrorLogging();
void boot();

/**
 * On a phone each step below is a long task: run one after another they were one task of half a
 * second on a throttled CPU, which blocked a tap for all of it. Each now runs in a task of its
 * own, so the browser can answer input between them (the time zone is named in a worker):
 * evaluating MUI and the theme's modules (the largest chunk), making the theme, evaluating the
 * data layer, then React DOM and the app's modules, filling the cache, adopting the page. These
 * imports are the entry's only dynamic ones: the pages' HTML preloads their files with the
 * entry's (web/prerender.ts). A chunk a new build removed reloads the page (`loadChunk`).
 */
async function boot(): Promise<void> {
  await nextTask();
  const { appTheme } = await loadChunk(() => import('./app/theme'));
  await nextTask();
  appTheme();
  await nextTask();
  // Redux Toolkit's query layer with the endpoints a member's page comes with results of.
  await loadChunk(() => import('./app/rendered-endpoints'));
  await nextTask();
  const { startApp } = await loadChunk(() => import('./app/start-in-browser'));
  await nextTask();
  await startApp(document.getElementById('root')!);
}
