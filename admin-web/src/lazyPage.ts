import { lazy, type ComponentType } from 'react';

/**
 * A page of the console as its own chunk, loaded when it is first opened: the console's first
 * load is react-admin's shell (layout, menu, app bar) and no page's code. react-admin's layout
 * shows its loading indicator in the page's place meanwhile (its content is a Suspense).
 */
export function lazyPage<M>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
