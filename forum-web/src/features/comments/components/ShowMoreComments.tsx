import ExpandMore from '@mui/icons-material/ExpandMore';
import { Button, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';

interface ShowMoreCommentsProps {
  shown: number;
  total: number;
  /** Pages read so far: once more than one, the status says when the last has come. */
  pages: number;
  hasMore: boolean;
  loading: boolean;
  onShowMore: () => void;
}

/**
 * Below a list of comments shown a page at a time: how many are shown, as a polite status that
 * screen readers announce when a page arrives, and 'Show more comments' while there are more.
 * The button stays focusable while its page loads (a disabled one would drop the keyboard's
 * focus); when the last page has come and the button goes, the focus moves to the status.
 */
export function ShowMoreComments({ shown, total, pages, hasMore, loading, onShowMore }: ShowMoreCommentsProps) {
  const status = useRef<HTMLParagraphElement>(null);
  const asked = useRef(false);

  useEffect(() => {
    if (!hasMore && asked.current) {
      asked.current = false;
      status.current?.focus();
    }
  }, [hasMore]);

  const showMore = () => {
    if (loading) return;
    asked.current = true;
    onShowMore();
  };

  return (
    <Stack spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
      <Typography ref={status} tabIndex={-1} role="status" variant="body2" color="text.secondary" sx={{ outline: 'none' }}>
        {hasMore ? `Showing ${shown} of ${Math.max(shown, total)} comments` : pages > 1 ? `Showing all ${shown} comments` : ''}
      </Typography>
      {hasMore && (
        <Button variant="outlined" startIcon={<ExpandMore />} aria-disabled={loading} onClick={showMore}>
          {loading ? 'Loading more comments...' : 'Show more comments'}
        </Button>
      )}
    </Stack>
  );
}
