import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the page renders on the server and while the browser hydrates that markup, true
 * otherwise (and at once for a page the browser renders itself): what differs between the two
 * sides (the reader's locale and time zone) is shown only once it is true.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
