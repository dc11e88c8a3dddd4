import FlagOutlined from '@mui/icons-material/FlagOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import { Alert, Box, Button, Link, List, ListItem, ListItemAvatar, ListItemText, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Markdown, PersonAvatar } from '@forum/web-ui';
import { AuthorName } from '../../../components/AuthorName';
import { HiddenNotice } from '../../../components/ModerationMarks';
import { useAuthState } from '../../../lib/auth';
import { asSentence } from '../../../lib/format';
import { FormattedDate } from '../../../components/FormattedDate';
import { commentAnchorId, useCommentAnchor } from '../hooks/use-comment-anchor';
import { useCommentPages } from '../hooks/use-comment-pages';
import { useLiveComments } from '../hooks/use-live-comments';
import { CommentEdited } from './CommentEdited';
import { CommentForm } from './CommentForm';
import { EditCommentButton } from './EditComment';
import { ShowMoreComments } from './ShowMoreComments';

export const commentsPagePath = (postId: string) => `/post/${encodeURIComponent(postId)}/comments`;

/**
 * The comments under a post (spec §2 Post detail): the list, newest first a page at a time with
 * 'Show more comments', the form for signed-in readers, 'Login to comment' for visitors, and the
 * link to the comments page; comments written or removed elsewhere show as they happen (the
 * change stream). The section's id is 'comments', so /post/{id}#comments (My Posts'
 * Comments action) lands here; each comment's is `comment-<id>`, so a notification's
 * /post/{id}#comment-{id} lands on the comment, marked out. On a locked post (`locked`, with staff's
 * reason when they gave one) members get a short text saying so instead of the form; staff keep it.
 * A hidden post (`hidden`: only its author and staff see it) takes comments from staff alone.
 */
export function PostComments({
  postId,
  locked,
  hidden = false,
  staff = false,
}: {
  postId: string;
  locked?: { reason?: string };
  hidden?: boolean;
  staff?: boolean;
}) {
  const { status } = useAuthState();
  const location = useLocation();
  const commentPages = useCommentPages(postId);
  const { comments, isLoading, error } = commentPages;
  useLiveComments(postId, comments);
  const anchored = useCommentAnchor(comments, commentPages);
  const sectionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (error) console.error('Loading comments failed', error);
  }, [error]);

  // The list arrives after the page: scroll to it once it is there when the link asked for it.
  const scrolled = useRef(false);
  useEffect(() => {
    if (location.hash === '#comments' && !isLoading && !scrolled.current) {
      scrolled.current = true;
      sectionRef.current?.scrollIntoView({ block: 'start' });
    }
  }, [isLoading, location.hash]);

  return (
    <Paper
      component="section"
      id="comments"
      ref={sectionRef}
      variant="outlined"
      aria-labelledby="comments-heading"
      sx={{ mt: 3, p: { xs: 2.5, md: 4 }, scrollMarginTop: 80 }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography id="comments-heading" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
          Comments
        </Typography>
        <Button component={RouterLink} to={commentsPagePath(postId)} size="small" startIcon={<FlagOutlined />}>
          View and report comments
        </Button>
      </Stack>

      {locked && (
        <Alert severity="info" icon={<LockOutlined />} sx={{ mb: 2 }}>
          This post is locked: no new comments can be added.{locked.reason && ` Reason: ${asSentence(locked.reason)}`}
          {staff && ' As staff, you can still comment.'}
        </Alert>
      )}
      {hidden && !staff && (
        <Alert severity="info" icon={<VisibilityOffOutlined />} sx={{ mb: 2 }}>
          While this post is hidden, only moderators can comment on it.
        </Alert>
      )}
      {(locked || hidden) && !staff ? null : status === 'authenticated' ? (
        <CommentForm postId={postId} />
      ) : status === 'anonymous' ? (
        // No '#comments' in the way back: the realm refuses a return address with a fragment.
        <Typography color="text.secondary">
          <Link component={RouterLink} to="/joinUs" state={{ from: location.pathname }} sx={{ fontWeight: 600 }}>
            Login to comment
          </Link>
        </Typography>
      ) : null}

      {isLoading ? (
        <Stack spacing={2} sx={{ mt: 3 }} aria-busy="true" aria-label="Loading comments">
          {[0, 1].map((i) => (
            <Stack key={i} direction="row" spacing={1.5}>
              <Skeleton variant="circular" width={36} height={36} />
              <Box sx={{ flex: 1 }}>
                <Skeleton width="30%" />
                <Skeleton width="80%" />
              </Box>
            </Stack>
          ))}
        </Stack>
      ) : comments.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 3 }}>
          No comments yet. Be the first to comment!
        </Typography>
      ) : (
        <List aria-label="Comments" sx={{ mt: 2 }}>
          {comments.map((comment) => (
            <ListItem
              key={comment._id}
              id={commentAnchorId(comment._id)}
              tabIndex={-1}
              aria-current={anchored === comment._id ? 'location' : undefined}
              alignItems="flex-start"
              disableGutters
              divider
              sx={{
                scrollMarginTop: 80,
                outline: 'none',
                transition: 'background-color 0.6s',
                ...(anchored === comment._id && { bgcolor: 'action.selected', borderLeft: 4, borderLeftColor: 'primary.main', pl: 1 }),
                '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
              }}
            >
              <ListItemAvatar sx={{ minWidth: 48 }}>
                <PersonAvatar name={comment.authorName} photo={comment.authorPhoto} size={36} />
              </ListItemAvatar>
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
                    <AuthorName name={comment.authorName} authorId={comment.authorId} variant="subtitle2" />
                    <Typography component="time" variant="caption" color="text.secondary" dateTime={comment.createdAt}>
                      <FormattedDate value={comment.createdAt} time />
                    </Typography>
                    {comment.editedAt && (
                      <Typography component="span" variant="caption">
                        <CommentEdited commentId={comment._id} editedAt={comment.editedAt} />
                      </Typography>
                    )}
                    {comment.byMe && <EditCommentButton comment={comment} />}
                  </Stack>
                }
                secondary={
                  <>
                    {comment.hidden && <HiddenNotice hidden={comment.hidden} what="comment" mine={comment.byMe === true} sx={{ mb: 1 }} />}
                    <Markdown source={comment.text} />
                  </>
                }
                slotProps={{
                  primary: { component: 'div' },
                  secondary: { component: 'div', color: 'text.primary', sx: { mt: 0.5 } },
                }}
              />
            </ListItem>
          ))}
        </List>
      )}
      {comments.length > 0 && <ShowMoreComments pages={commentPages} />}
    </Paper>
  );
}
