import ExpandMore from '@mui/icons-material/ExpandMore';
import { Button, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import type { CommentPages } from '../hooks/use-comment-pages';

/**
 * Below a list of comments shown a page at a time: how many are shown, as a polite status that
 * screen readers announce when a page arrives, and 'Show more comments' while there are more.
 * The button stays focusable while its page loads (a disabled one would drop the keyboard's
 * focus); when the last page has come and the button goes, the focus moves to the status. Once
 * more than one page has been read, the status says when the last has come.
 */
export function ShowMoreComments({ pages }: { pages: CommentPages }) {
  const { comments, total, pagesRead, hasMore, isLoadingMore, loadMore } = pages;
  const shown = comments.length;
  const status = useRef<HTMLParagraphElement>(null);
  const asked = useRef(false);

  useEffect(() => {
    if (!hasMore && asked.current) {
      asked.current = false;
      status.current?.focus();
    }
  }, [hasMore]);

  const showMore = () => {
    if (isLoadingMore) return;
    asked.current = true;
    loadMore();
  };

  return (
    <Stack spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
      <Typography ref={status} tabIndex={-1} role="status" variant="body2" color="text.secondary" sx={{ outline: 'none' }}>
        {hasMore ? `Showing ${shown} of ${Math.max(shown, total)} comments` : pagesRead > 1 ? `Showing all ${shown} comments` : ''}
      </Typography>
      {hasMore && (
        <Button variant="outlined" startIcon={<ExpandMore />} aria-disabled={isLoadingMore} onClick={showMore}>
          {isLoadingMore ? 'Loading more comments...' : 'Show more comments'}
        </Button>
      )}
    </Stack>
  );
}
