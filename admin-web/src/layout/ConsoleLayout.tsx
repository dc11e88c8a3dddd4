import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

/**
 * react-admin's layout grows as wide as its widest content (`min-width: fit-content`), so a page
 * wider than a phone scrolled sideways and cut the fixed app bar: here the layout is the screen's
 * width and what is wider scrolls inside the content, beside the menu and under the whole bar.
 */
const toTheScreen = { minWidth: 0, '& .RaLayout-content': { minWidth: 0, overflowX: 'auto' } } as const;

/** react-admin's layout with the console's menu and app bar, no wider than the screen. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={ConsoleMenu} appBar={ConsoleAppBar} sx={toTheScreen}>
      {children}
    </Layout>
  );
}
