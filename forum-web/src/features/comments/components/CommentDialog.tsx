import type { CommentItem } from '@forum/contracts';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { Markdown, PersonAvatar } from '@forum/web-ui';
import { formatDateTime } from '../../../lib/format';

/** 'Read more' (spec §2): the author, the full text, when it was posted, Close. */
export function CommentDialog({ comment, open, onClose }: { comment: CommentItem; open: boolean; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <PersonAvatar name={comment.authorName} photo={comment.authorPhoto} size={36} />
          <span>Comment by {comment.authorName}</span>
        </Stack>
      </DialogTitle>
      <DialogContent>
        <Markdown source={comment.text} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          Posted on <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt)}</time>
        </Typography>
      </DialogContent>
      <DialogActions>
        {/* eslint-disable-next-line jsx-a11y-x/no-autofocus -- the dialog opens on the user's 'Read more'; its only control takes the focus (MUI's Dialog pattern) */}
        <Button onClick={onClose} variant="contained" autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
