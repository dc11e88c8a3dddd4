import { ANONYMOUS_NAME, ErrorCode, type FieldErrors } from '@forum/contracts';
import Lock from '@mui/icons-material/LockOutlined';
import { Alert, Box, Button, Card, CardContent, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { PersonAvatar } from '@forum/web-ui';
import { useDialogs } from '../../../components/dialog/DialogProvider';
import { useToast } from '../../../components/toast/ToastProvider';
import { useAttemptKey } from '../../../lib/attempt-key';
import { useAuthState } from '../../../lib/auth';
import { refusalMessageOf, serverError } from '../../../lib/http-error';
import { useCreatePostMutation } from '../api/create-post';
import { useGetMeQuery } from '../api/get-me';
import { useGetPostCountQuery } from '../api/get-post-count';
import { postLimitState, type PostLimitState } from '../rules/post-limit';
import { PostForm, type PostFields } from './PostForm';

/** Spec §2 Create New Post: the free-limit notes, or the 'Post Limit Reached' panel instead of the form. */
export function AddPost() {
  const { user } = useAuthState();
  const email = user?.email ?? '';
  const me = useGetMeQuery(undefined, { skip: !user });
  const count = useGetPostCountQuery(email, { skip: !email });

  if (me.isLoading || count.isLoading) {
    return (
      <Stack spacing={2} aria-busy="true" aria-label="Loading the post form">
        <Skeleton variant="text" width={240} height={48} />
        <Skeleton variant="rounded" height={360} />
      </Stack>
    );
  }
  if (!me.data || !count.data) return <Alert severity="error">The post form could not be loaded. Please try again later.</Alert>;

  const limit = postLimitState(count.data.count, me.data.isMember);
  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        Create New Post
      </Typography>
      {limit.kind === 'reached' ? (
        <PostLimitReached limit={limit.limit} />
      ) : (
        <>
          <PostLimitNote state={limit} />
          <NewPostForm authorName={me.data.name || ANONYMOUS_NAME} authorPhoto={me.data.photoURL} />
        </>
      )}
    </Stack>
  );
}

function PostLimitNote({ state }: { state: PostLimitState }) {
  if (state.kind !== 'free') return null;
  return (
    <Alert severity={state.warning ? 'warning' : 'info'}>
      <span>{`You have created ${state.count} out of ${state.limit} posts.`}</span>
      {state.warning && <strong style={{ display: 'block', marginTop: 4 }}>You're approaching the limit for free users.</strong>}
    </Alert>
  );
}

function PostLimitReached({ limit }: { limit: number }) {
  return (
    <Paper component="section" aria-labelledby="limit-title" variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
      <Lock color="warning" aria-hidden sx={{ fontSize: 48 }} />
      <Typography id="limit-title" variant="h5" component="h2" sx={{ fontWeight: 700, mt: 1 }}>
        Post Limit Reached
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {`Free users can create up to ${limit} posts. Become a member to post as much as you like.`}
      </Typography>
      <Button component={RouterLink} to="/membership" variant="contained" size="large">
        Become a Member
      </Button>
    </Paper>
  );
}

function NewPostForm({ authorName, authorPhoto }: { authorName: string; authorPhoto: string }) {
  const [createPost, { isLoading }] = useCreatePostMutation();
  const toast = useToast();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const attemptKey = useAttemptKey();

  const send = async (post: PostFields): Promise<FieldErrors | undefined> => {
    try {
      await createPost({ post, idempotencyKey: attemptKey(post) }).unwrap();
    } catch (error) {
      const server = serverError(error as FetchBaseQueryError);
      if (server?.code === ErrorCode.POST_LIMIT_REACHED) {
        // the count shown was stale: the page turns into the limit panel once it is read again
        await dialogs.alert({ title: 'Post Limit Reached', message: server.message });
        return undefined;
      }
      toast({ message: refusalMessageOf(server) ?? 'Failed to create post', severity: 'error' });
      return server?.fields;
    }
    toast({ message: 'Your post has been created.' });
    void navigate('/dashboard/my-post');
    return undefined;
  };

  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 3 }}>
          <PersonAvatar name={authorName} photo={authorPhoto} />
          <Box>
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              Posting as
            </Typography>
            <Typography sx={{ fontWeight: 600 }}>{authorName}</Typography>
          </Box>
        </Stack>
        <PostForm label="New post" submitLabel="Create Post" busy={isLoading} onSend={send} />
      </CardContent>
    </Card>
  );
}
