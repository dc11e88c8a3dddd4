import { parseMarkdown } from '@forum/contracts/markdown';
import { Box, type SxProps, type Theme } from '@mui/material';
import { useMemo } from 'react';
import { useOwnOrigin } from '../own-origin.tsx';
import { renderTokens } from './render-tokens.tsx';
import { markdownSx } from './markdown-sx.ts';
import { sxList } from '../sx.ts';

export interface MarkdownViewProps {
  /** The text as its author wrote it, in the forum's Markdown. */
  source: string;
  /** The forum's own origin, which images may not load from (the page's or the one provided, see own-origin.tsx, unless told). */
  ownOrigin?: string;
  sx?: SxProps<Theme>;
}

/** A member's text in the forum's Markdown, rendered as React elements (render-tokens.tsx) in the forum's typography. */
export function MarkdownView({ source, ownOrigin: given, sx }: MarkdownViewProps) {
  const page = useOwnOrigin();
  const ownOrigin = given ?? page;
  const content = useMemo(() => renderTokens(parseMarkdown(source), { ownOrigin }), [source, ownOrigin]);
  return (
    <Box className="markdown" sx={[...sxList(markdownSx), ...sxList(sx)]}>
      {content}
    </Box>
  );
}
