import { createContext, useContext } from 'react';

/**
 * The forum's own origin, where its pages and images are: the page's in a browser; a server that
 * renders the pages (forum-web's entry-server) provides its PUBLIC_URL's, since it has no page.
 */
const OwnOrigin = createContext<string | undefined>(undefined);

export const OwnOriginProvider = OwnOrigin.Provider;

/** The forum's own origin: the provided one, else the page's. */
export function useOwnOrigin(): string {
  return useContext(OwnOrigin) ?? globalThis.location.origin;
}
