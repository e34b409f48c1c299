import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router';
import { createStore } from '@/app/store';
import { Toaster } from '@/components/toast';

/** Shows the current path so tests can see redirects. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders UI with a fresh store, a memory router at `path`, and the toaster. */
export function renderWithApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const store = createStore({ devChecks: false });
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <LocationProbe />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...result };
}
