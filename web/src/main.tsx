import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { ScrollToTop } from './components/scroll-to-top';
import { ToastHost } from './components/toast-host';
import { installGlobalErrorLogging } from '@/lib/logger';
import { AppRoutes } from './app/routes';
import { store } from './app/store';
import { AppThemeProvider } from './app/theme';

installGlobalErrorLogging();

// Rendered as a transition: React yields to the browser every few milliseconds instead of
// holding the main thread for the whole first render (a phone stays responsive while it loads).
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <Provider store={store}>
        <AppThemeProvider>
          <BrowserRouter>
            <ScrollToTop />
            <AppRoutes />
            <ToastHost />
          </BrowserRouter>
        </AppThemeProvider>
      </Provider>
    </StrictMode>,
  ),
);
