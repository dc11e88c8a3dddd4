import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api, type ApiExtra } from '../lib/api';

/**
 * A fresh store; tests make their own. `token` gives the api its bearer token (signed in) or undefined;
 * `preloadedState`: a server-rendered page's reads (server/state.ts).
 */
export function makeStore(extra: ApiExtra = {}, preloadedState?: { [api.reducerPath]: ReturnType<typeof api.reducer> }) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    ...(preloadedState && { preloadedState }),
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
  // Lets the api's refetchOnFocus / refetchOnReconnect see those browser events.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
