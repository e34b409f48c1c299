import { StrictMode } from 'react';
import { createPath, Router, type Navigator, type To } from 'react-router';
import { LandingPage } from '@/features/landing/landing-page';
import { AppThemeProvider } from './theme';

const href = (to: To) => (typeof to === 'string' ? to : createPath(to));

/** Every link leaves the page with a full load: the next page comes pre-rendered or with the app. */
const fullLoads: Navigator = {
  createHref: href,
  push: (to) => window.location.assign(href(to)),
  replace: (to) => window.location.replace(href(to)),
  go: (delta) => window.history.go(delta),
};

/**
 * The landing page alone, for a visitor without a session (api/http/web-assets.ts sends it
 * pre-rendered): no store, no current-user query, no route table, so a phone runs a third less
 * JavaScript before the page responds. A signed-in user gets the app (web/src/main.tsx) instead.
 */
export function VisitorLanding({ location }: { location: string }) {
  return (
    <StrictMode>
      <AppThemeProvider>
        <Router location={location} navigator={fullLoads}>
          <LandingPage />
        </Router>
      </AppThemeProvider>
    </StrictMode>
  );
}
