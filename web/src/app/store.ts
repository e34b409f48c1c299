import { configureStore } from '@reduxjs/toolkit';
import { api, type ServerRequest } from '@/lib/api';

/**
 * The Redux store: the RTK Query cache (features keep their slices beside their code). The
 * browser has one; the server makes one per page it renders for a member, asking the API as
 * them (`server`).
 */
export function createStore({ devChecks = true, server }: { devChecks?: boolean; server?: ServerRequest } = {}) {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    // devChecks off: component tests on a busy machine, where the timing warnings are noise.
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: { server } },
        immutableCheck: devChecks,
        serializableCheck: devChecks,
      }).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;

export const store = createStore();
