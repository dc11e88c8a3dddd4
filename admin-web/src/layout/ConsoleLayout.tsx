import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

/** react-admin's layout with the console's menu and app bar. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  return <Layout menu={ConsoleMenu} appBar={ConsoleAppBar}>{children}</Layout>;
}
