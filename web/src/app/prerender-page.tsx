import { prerender } from 'react-dom/static';
import { App, knownVisitor } from './app';
import { VisitorLanding } from './visitor-landing';

export type PrerenderedTree = 'landing' | 'app';

/**
 * A page's HTML at `location`, rendered by the components the browser then hydrates: the landing
 * page alone (web/src/landing-main.tsx) or the whole app (web/src/main.tsx). Lazy pages are
 * waited for. Emotion writes each style beside its first element (web/prerender.ts moves them).
 * @public (loaded by web/prerender.ts through vite)
 */
export async function prerenderPage(tree: PrerenderedTree, location: string): Promise<string> {
  knownVisitor();
  const page = tree === 'landing' ? <VisitorLanding /> : <App location={location} />;
  const { prelude } = await prerender(page);
  return new Response(prelude).text();
}
