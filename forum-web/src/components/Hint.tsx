import { lazy, Suspense, type ReactElement } from 'react';

const Tooltip = lazy(() => import('@mui/material/Tooltip'));

/**
 * MUI's Tooltip, loaded after the page has shown (it brings Popper, an eighth of what the
 * forum's first screen would load): until then the element shows without its hint. Only for
 * hints an element's accessible name already carries.
 */
export function Hint({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Suspense fallback={children}>
      <Tooltip title={title}>{children}</Tooltip>
    </Suspense>
  );
}
