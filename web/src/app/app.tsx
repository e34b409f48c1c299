import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter, StaticRouter } from 'react-router';
import { ScrollToTop } from '@/components/scroll-to-top';
import { ToastHost } from '@/components/toast-host';
import { currentUserApi } from '@/lib/current-user';
import { AppRoutes } from './routes';
import { store } from './store';
import { AppThemeProvider } from './theme';

/**
 * The page was pre-rendered, which the server does only for a request without a session cookie:
 * the user is a visitor, known without asking GET /api/auth/user (and its 401).
 */
export function knownVisitor(): void {
  store.dispatch(
    currentUserApi.util.upsertQueryEntries([{ endpointName: 'currentUser', arg: undefined, value: null }]),
  );
}

/**
 * The whole client. `location` is given when a page is pre-rendered at build time
 * (web/prerender.ts); the browser's address decides otherwise.
 */
export function App({ location }: { location?: string }) {
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
