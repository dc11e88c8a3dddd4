import ArrowBack from '@mui/icons-material/ArrowBack';
import { Button, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { PostNotFound } from '../../../components/NotFoundMessage';
import { useToast } from '../../../components/toast/ToastProvider';
import { isNotFound } from '../../../lib/http-error';
import { useCommentPages } from '../hooks/use-comment-pages';
import { CommentRow } from './CommentRow';
import { ShowMoreComments } from './ShowMoreComments';

/** The Post Comments screen (spec §2, /post/{postId}/comments): a post's comments, newest first a page at a time, each with its report controls. */
export function CommentsTable({ postId }: { postId: string }) {
  const commentPages = useCommentPages(postId);
  const { comments, isLoading, error } = commentPages;
  const navigate = useNavigate();
  const toast = useToast();

  const missing = isNotFound(error);

  useEffect(() => {
    if (!error || missing) return;
    console.error('Loading comments failed', error);
    toast({ message: 'Failed to load comments', severity: 'error' });
  }, [error, missing, toast]);

  // 'Back to Post' is one step back; opened from outside the app, there is no step, so it goes to the post.
  const back = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(`/post/${encodeURIComponent(postId)}`);
  };

  if (missing) return <PostNotFound />;

  return (
    <>
      <title>Post Comments · Forum</title>
      <Button onClick={back} startIcon={<ArrowBack />} sx={{ mb: 2 }}>
        Back to Post
      </Button>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 1, fontSize: { xs: '1.75rem', sm: '2.125rem' } }}>
        Post Comments
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Choose a feedback to report a comment that breaks the community rules. Moderators review every report.
      </Typography>

      {isLoading ? (
        <Paper variant="outlined" role="status" sx={{ py: 6, textAlign: 'center' }}>
          <Typography color="text.secondary">Loading comments...</Typography>
        </Paper>
      ) : comments.length === 0 ? (
        <Paper variant="outlined" sx={{ py: 6, textAlign: 'center' }}>
          <Typography color="text.secondary">{error ? 'Failed to load comments' : 'No comments yet. Be the first to comment!'}</Typography>
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          {/* Below 600 px each comment is a stack of its cells rather than a row too wide for the screen. */}
          <Table
            aria-label="Comments"
            sx={{
              minWidth: { sm: 720 },
              '& thead': { display: { xs: 'none', sm: 'table-header-group' } },
              '& tbody tr': {
                display: { xs: 'grid', sm: 'table-row' },
                gap: 1.5,
                p: { xs: 2, sm: 0 },
                borderBottom: { xs: 1, sm: 0 },
                borderColor: { xs: 'divider' },
              },
              '& tbody tr:last-of-type': { borderBottom: 0 },
              '& tbody td': { display: { xs: 'block', sm: 'table-cell' }, p: { xs: 0, sm: 2 }, borderBottom: { xs: 0, sm: 1 }, borderColor: { sm: 'divider' } },
            }}
          >
            <TableHead>
              <TableRow>
                <TableCell>Commenter</TableCell>
                <TableCell>Comment</TableCell>
                <TableCell>Feedback</TableCell>
                <TableCell>Action</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {comments.map((comment) => (
                <CommentRow key={comment._id} comment={comment} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {comments.length > 0 && <ShowMoreComments pages={commentPages} />}
    </>
  );
}
