import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router';
import { createStore } from '@/app/store';
import { AppThemeProvider } from '@/app/theme';
import { Toaster } from '@/components/toaster';

/** Shows the current path so tests can see redirects. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/**
 * Renders UI with a fresh store, a memory router at `path`, and the toaster; with `theme`, inside the
 * app's theme provider (light/dark scheme from localStorage 'theme', as a class on <html>).
 */
export function renderWithApp(ui: ReactNode, { path = '/', theme = false }: { path?: string; theme?: boolean } = {}) {
  const store = createStore({ devChecks: false });
  const app = (
    <MemoryRouter initialEntries={[path]}>
      {ui}
      <LocationProbe />
      <Toaster />
    </MemoryRouter>
  );
  const result = render(<Provider store={store}>{theme ? <AppThemeProvider>{app}</AppThemeProvider> : app}</Provider>);
  return { store, ...result };
}
