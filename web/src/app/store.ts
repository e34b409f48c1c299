import { configureStore } from '@reduxjs/toolkit';
import { api } from '@/lib/api';

/** The Redux store: the RTK Query cache (features keep their slices beside their code). */
export function createStore({ devChecks = true }: { devChecks?: boolean } = {}) {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    // devChecks off: component tests on a busy machine, where the timing warnings are noise.
    middleware: (getDefault) =>
      getDefault({ immutableCheck: devChecks, serializableCheck: devChecks }).concat(api.middleware),
  });
}

export const store = createStore();
