import { StrictMode } from 'react';
import { LandingPage } from '@/features/landing/landing-page';
import { AppThemeProvider } from './theme';

/**
 * The landing page alone, for a visitor without a session (api/http/web-assets.ts sends it
 * pre-rendered): no store, no current-user query, no router (its links are plain links, each a
 * page load of a pre-rendered page), so a phone loads and runs a third less JavaScript.
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
