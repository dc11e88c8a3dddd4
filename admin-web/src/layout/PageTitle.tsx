import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';

/** Where react-admin's app bar shows the page's title (its `TitlePortal`). */
const titleContainer = () => document.getElementById('react-admin-title');
// the app bar's title is looked up at each render: React looks again once the page is on screen,
// so a title rendered before the app bar's own appears with it
const noChanges = () => () => {};

/**
 * A page's title in the app bar, as react-admin's `Title` puts it there (a portal into the app bar's
 * title), without what `Title` brings besides: its title is configurable (`Configurable`, edited in
 * MUI's `TextField` with `Select` and every input variant: about 7 KB gzip), which no page of the
 * console offers.
 */
export function PageTitle({ title }: { title: string }) {
  const container = useSyncExternalStore(noChanges, titleContainer, () => null);
  return container ? createPortal(<span>{title}</span>, container) : null;
}
