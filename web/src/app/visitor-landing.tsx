import { StrictMode } from 'react';
import { LandingPage } from '@/features/landing/landing-page';
import { AppThemeProvider } from './theme';

/**
 * The landing page alone, for a visitor without a session (api/http/web-assets.ts sends it
 * pre-rendered): no store, no current-user query, no router (its links are plain links, each a
 * page load of a pre-rendered page). Only rendered at build time: the browser does not hydrate it
 (web/src/landing-main.ts), so a phone runs no React on this page.
 * A signed-in user gets the app (web/src/main.tsx) instead.
 */
export function VisitorLanding() {
  return (
    <StrictMode>
      <AppThemeProvider>
        <LandingPage />
      </AppThemeProvider>
    </StrictMode>
  );
}
