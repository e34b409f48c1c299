import { configureStore } from '@reduxjs/toolkit';
import { api } from './api';

/** The Redux store: the RTK Query cache (features keep their slices beside their code). */
export function createStore() {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export const store = createStore();
export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
