import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter, StaticRouter } from 'react-router';
import type { RenderedQuery } from '@contracts/member-pages';
import { ScrollToTop } from '@/components/scroll-to-top';
import { ToastHost } from '@/components/toast-host';
import { currentUserApi } from '@/lib/current-user';
import { AppRoutes } from './routes';
import { store as browserStore, type AppStore } from './store';
import { AppThemeProvider } from './theme';

/**
 * The page was pre-rendered, which the server does only for a request without a session cookie:
 * the user is a visitor, known without asking GET /api/auth/user (and its 401).
 */
export function knownVisitor(): void {
  browserStore.dispatch(
    currentUserApi.util.upsertQueryEntries([{ endpointName: 'currentUser', arg: undefined, value: null }]),
  );
}

/** A page the server rendered for a member came with the results it showed: the cache starts with them. */
export function renderedWith(queries: RenderedQuery[]): void {
  browserStore.dispatch(
    currentUserApi.util.upsertQueryEntries(queries as Parameters<typeof currentUserApi.util.upsertQueryEntries>[0]),
  );
}

/**
 * The whole client. `location` is given when a page is rendered on the server (at build time by
 * web/prerender.ts, or for a member by web/src/app/member-page.tsx, with a store of its own);
 * the browser's address decides otherwise.
 */
export function App({ location, store = browserStore }: { location?: string; store?: AppStore }) {
  const routes = (
    <>
      <ScrollToTop />
      <AppRoutes />
      <ToastHost />
    </>
  );
  return (
    <StrictMode>
      <Provider store={store}>
        <AppThemeProvider>
          {location === undefined ? (
            <BrowserRouter>{routes}</BrowserRouter>
          ) : (
            <StaticRouter location={location}>{routes}</StaticRouter>
          )}
        </AppThemeProvider>
      </Provider>
    </StrictMode>
  );
}
