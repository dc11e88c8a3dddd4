import { Skeleton } from '@mui/material';
import { lazy, Suspense } from 'react';
import type { MarkdownView as MarkdownViewType, MarkdownViewProps } from './MarkdownView.tsx';

/** The renderer once its chunk has come (loadMarkdownRenderer): rendered at once from then on, without a placeholder's frame. */
let loaded: typeof MarkdownViewType | undefined;
let loading: Promise<typeof MarkdownViewType> | undefined;

/**
 * Starts loading the Markdown renderer's chunk (once; later calls answer the same promise). A page
 * that will show a member's text calls it as its own code loads, so the chunk comes while the page
 * waits for the text: the text then shows as it arrives, not a line of placeholder first, which the
 * text pushing down what is under it would make a layout shift.
 */
export function loadMarkdownRenderer(): Promise<typeof MarkdownViewType> {
  loading ??= import('./MarkdownView.tsx').then(({ MarkdownView }) => (loaded = MarkdownView));
  return loading;
}

const View = lazy(async () => ({ default: await loadMarkdownRenderer() }));
const Plain = lazy(async () => ({ default: (await import('./PlainMarkdown.tsx')).PlainMarkdown }));

/**
 * A member's Markdown rendered (MarkdownView), its renderer a chunk loaded with the first text a
 * page shows (or before, loadMarkdownRenderer): a page that shows none never loads it.
 */
export function Markdown(props: MarkdownViewProps) {
  // the same Suspense boundary whether or not the chunk has come: a page the server rendered with the
  // renderer loaded keeps its text while the browser's chunk comes (hydration waits at the boundary)
  const Loaded = loaded ?? View;
  return (
    <Suspense fallback={<Skeleton variant="text" width="80%" role="status" aria-label="Loading text" />}>
      <Loaded {...props} />
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
