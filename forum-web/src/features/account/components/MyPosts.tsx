import type { PostListItem } from '@forum/contracts';
import { editPostPath, postPath } from '../../../lib/paths';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ThumbDownOutlined from '@mui/icons-material/ThumbDownOutlined';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useDialogs } from '../../../components/dialog/DialogProvider';
import { HiddenNotice, PostMarks } from '../../../components/ModerationMarks';
import { useAuthState } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import { refusalMessageOf, serverError } from '../../../lib/http-error';
import { useDeletePostMutation } from '../api/delete-post';
import { useGetMyPostsQuery } from '../api/get-my-posts';

/** The API answers the newest posts at once (up to UNPAGED_LIST_MAX); the table pages them itself. */
export const MY_POSTS_PAGE_SIZE = 10;

/** Spec §2 My Posts: the user's posts with their votes, date and the View / Comments / Edit / Delete actions. */
export function MyPosts() {
  const { user } = useAuthState();
  const email = user?.email ?? '';
  const { data, isLoading, error } = useGetMyPostsQuery(email, { skip: !email });
  const posts = data?.posts;
  useEffect(() => {
    if (error) console.error('Loading my posts failed', error);
  }, [error]);
  const [page, setPage] = useState(0);
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));

  const lastPage = Math.max(0, Math.ceil((posts?.length ?? 0) / MY_POSTS_PAGE_SIZE) - 1);
  const shownPage = Math.min(page, lastPage);
  const shown = posts?.slice(shownPage * MY_POSTS_PAGE_SIZE, (shownPage + 1) * MY_POSTS_PAGE_SIZE) ?? [];

  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          My Posts
        </Typography>
        {posts && posts.length > 0 && (
          <Button component={RouterLink} to="/dashboard/add-post" variant="outlined">
            Add New Post
          </Button>
        )}
      </Stack>
      {isLoading ? (
        <Skeleton variant="rounded" height={240} role="status" aria-label="Loading your posts" />
      ) : !posts ? (
        // a failed refresh keeps the list it has; only a list never loaded is an error
        <Alert severity="error">Your posts could not be loaded. Please try again later.</Alert>
      ) : posts.length === 0 ? (
        <Paper variant="outlined" sx={{ py: 6, px: 2, textAlign: 'center' }}>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            You have not created any posts yet.
          </Typography>
          <Button component={RouterLink} to="/dashboard/add-post" variant="contained">
            Add New Post
          </Button>
        </Paper>
      ) : (
        <Paper variant="outlined" sx={phone ? { bgcolor: 'transparent', border: 0 } : undefined}>
          {phone ? (
            <Stack spacing={1.5} component="section" aria-label="My posts">
              {shown.map((post) => (
                <MyPostCard key={post._id} post={post} />
              ))}
            </Stack>
          ) : (
            <TableContainer>
              <Table aria-label="My posts" sx={{ minWidth: 560 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>Post Title</TableCell>
                    <TableCell>Votes</TableCell>
                    <TableCell>Created At</TableCell>
                    <TableCell>Actions</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {shown.map((post) => (
                    <MyPostRow key={post._id} post={post} />
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {posts.length > MY_POSTS_PAGE_SIZE && (
            <TablePagination
              component="div"
              count={posts.length}
              page={shownPage}
              onPageChange={(_event, next) => setPage(next)}
              rowsPerPage={MY_POSTS_PAGE_SIZE}
              rowsPerPageOptions={[]}
            />
          )}
          {data && data.total > data.posts.length && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              Showing your newest {data.posts.length} of {data.total} posts.
            </Typography>
          )}
        </Paper>
      )}
    </Stack>
  );
}

/** View, Comments, Edit and Delete of one post, with the delete confirmation (spec §4 Post deletion, §8). */
function usePostRemoval(post: PostListItem) {
  const [deletePost, { isLoading: deleting }] = useDeletePostMutation();
  const dialogs = useDialogs();
  const remove = async () => {
    const sure = await dialogs.confirm({
      title: 'Are you sure?',
      message: "You won't be able to revert this!",
      confirmLabel: 'Yes, delete it!',
      destructive: true,
    });
    if (!sure) return;
    try {
      await deletePost(post._id).unwrap();
    } catch (error) {
      const server = serverError(error as FetchBaseQueryError);
      console.error('Deleting a post failed', server ?? error);
      await dialogs.alert({ title: 'Error', message: refusalMessageOf(server) ?? 'Failed to delete post' });
      return;
    }
    await dialogs.alert({ title: 'Deleted!', message: 'Your post has been deleted.' });
  };
  return { deleting, remove };
}

function PostActions({ post, deleting, onDelete, direction }: { post: PostListItem; deleting: boolean; onDelete: () => void; direction: 'row' | 'column' }) {
  return (
    <Stack direction={direction} spacing={0.5} sx={{ alignItems: direction === 'column' ? 'flex-start' : 'center', flexWrap: 'wrap' }}>
      <Button size="small" component={RouterLink} to={postPath(post._id)} startIcon={<VisibilityOutlined />} aria-label={`View ${post.title}`}>
        View
      </Button>
      <Button
        size="small"
        component={RouterLink}
        to={`${postPath(post._id)}#comments`}
        startIcon={<ChatBubbleOutline />}
        aria-label={`Comments of ${post.title}`}
      >
        Comments
      </Button>
      <Button size="small" component={RouterLink} to={editPostPath(post._id)} startIcon={<EditOutlined />} aria-label={`Edit ${post.title}`}>
        Edit
      </Button>
      <Button size="small" color="error" onClick={onDelete} disabled={deleting} startIcon={<DeleteOutlined />} aria-label={`Delete ${post.title}`}>
        Delete
      </Button>
    </Stack>
  );
}

function TitleAndTags({ post }: { post: PostListItem }) {
  return (
    <>
      <Link component={RouterLink} to={postPath(post._id)} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {post.title}
      </Link>
      {post.tags.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.75 }}>
          {post.tags.map((tag) => (
            <Chip key={tag} label={`#${tag}`} size="small" variant="outlined" />
          ))}
        </Stack>
      )}
      <PostMarks pinned={post.pinned} locked={post.locked} sx={{ mt: 0.75 }} />
      {post.hidden && <HiddenNotice hidden={post.hidden} what="post" mine sx={{ mt: 1 }} />}
    </>
  );
}

function Votes({ post, direction }: { post: PostListItem; direction: 'row' | 'column' }) {
  return (
    <Stack direction={direction} spacing={direction === 'row' ? 2 : 0.5} sx={{ typography: 'body2', whiteSpace: 'nowrap' }}>
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, color: 'success.dark' }}>
        <ThumbUpOutlined fontSize="small" aria-hidden />
        {post.upVote}
        <Box component="span" sx={visuallyHidden}>
          {' up'}
        </Box>
      </Box>
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, color: 'error.dark' }}>
        <ThumbDownOutlined fontSize="small" aria-hidden />
        {post.downVote}
        <Box component="span" sx={visuallyHidden}>
          {' down'}
        </Box>
      </Box>
    </Stack>
  );
}

function MyPostRow({ post }: { post: PostListItem }) {
  const { deleting, remove } = usePostRemoval(post);
  return (
    <TableRow sx={{ opacity: deleting ? 0.5 : 1, verticalAlign: 'top' }}>
      <TableCell sx={{ minWidth: 200 }}>
        <TitleAndTags post={post} />
      </TableCell>
      <TableCell>
        <Votes post={post} direction="column" />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        <time dateTime={post.createdAt}>{formatDate(post.createdAt)}</time>
      </TableCell>
      <TableCell>
        <PostActions post={post} deleting={deleting} onDelete={() => void remove()} direction="column" />
      </TableCell>
    </TableRow>
  );
}

/** A phone has no room for four columns: each post is a card with the same parts, labelled. */
function MyPostCard({ post }: { post: PostListItem }) {
  const { deleting, remove } = usePostRemoval(post);
  return (
    <Card component="article" sx={{ opacity: deleting ? 0.5 : 1 }}>
      <CardContent sx={{ '&:last-child': { pb: 1.5 } }}>
        <TitleAndTags post={post} />
        <Stack direction="row" sx={{ mt: 1.5, justifyContent: 'space-between', alignItems: 'center', color: 'text.secondary', typography: 'body2' }}>
          <Votes post={post} direction="row" />
          <span>
            {'Created '}
            <time dateTime={post.createdAt}>{formatDate(post.createdAt)}</time>
          </span>
        </Stack>
        <Box sx={{ mt: 1, mx: -0.5 }}>
          <PostActions post={post} deleting={deleting} onDelete={() => void remove()} direction="row" />
        </Box>
      </CardContent>
    </Card>
  );
}
