import { prerender } from 'react-dom/static';
import { App, knownVisitor } from './app';
import { VisitorLanding } from './visitor-landing';

export type PrerenderedTree = 'landing' | 'app';

/**
 * A page's HTML at `location`: the landing page alone (never hydrated: web/src/landing-main.ts)
 * or the whole app, which the browser then hydrates (web/src/main.tsx). Lazy pages are
 * waited for. Emotion writes each style beside its first element (web/prerender.ts moves them).
 * @public (built by web/prerender.ts into the server build, web/src/app/server-entry.ts)
 */
export async function prerenderPage(tree: PrerenderedTree, location: string): Promise<string> {
  knownVisitor();
  const page = tree === 'landing' ? <VisitorLanding /> : <App location={location} />;
  const { prelude } = await prerender(page);
  return new Response(prelude).text();
}
