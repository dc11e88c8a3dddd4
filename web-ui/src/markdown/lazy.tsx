import { Skeleton } from '@mui/material';
import { lazy, Suspense } from 'react';
import type { MarkdownViewProps } from './MarkdownView.tsx';

const View = lazy(async () => ({ default: (await import('./MarkdownView.tsx')).MarkdownView }));
const Plain = lazy(async () => ({ default: (await import('./PlainMarkdown.tsx')).PlainMarkdown }));

/**
 * A member's Markdown rendered (MarkdownView), its renderer a chunk loaded with the first text a
 * page shows: a page that shows none never loads it.
 */
export function Markdown(props: MarkdownViewProps) {
  return (
    <Suspense fallback={<Skeleton variant="text" width="80%" role="status" aria-label="Loading text" />}>
      <View {...props} />
    </Suspense>
  );
}

/** A member's Markdown as plain text on one line (contracts' plainLine), with the renderer's chunk; `max` characters at most, then '...'. */
export function PlainMarkdownText(props: { source: string; max?: number }) {
  return (
    <Suspense fallback={null}>
      <Plain {...props} />
    </Suspense>
  );
}
