import { PostIdParams, type EditPostRequest, type FieldErrors, type PostDetail } from '@forum/contracts';
import { Alert, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { PostGone, PostNotFound } from '../../../components/NotFoundMessage';
import { useToast } from '../../../components/toast/ToastProvider';
import { useAttemptKey } from '../../../lib/attempt-key';
import { isGone, isNotFound, refusalMessageOf, serverError } from '../../../lib/http-error';
import { postPath } from '../../../lib/paths';
import { useGetPostQuery } from '../../../lib/post';
import { useEditPostMutation } from '../api/edit-post';
import { PostForm, type PostFields } from './PostForm';

/** The fields that differ from the post's: an edit sends only what changed. */
function changesOf(post: PostDetail, fields: PostFields): EditPostRequest {
  const sameTags = post.tags.length === fields.tags.length && post.tags.every((tag, index) => tag === fields.tags[index]);
  return {
    ...(fields.title !== post.title && { title: fields.title }),
    ...(fields.description !== post.description && { description: fields.description }),
    ...(!sameTags && { tags: fields.tags }),
  };
}

/**
 * /dashboard/my-post/:id/edit: the author's post in Add Post's form, prefilled; Save changes sends
 * what changed and goes back to the post. The server's refusals show as Add Post shows them.
 */
export function EditPost() {
  const { id = '' } = useParams();
  const valid = PostIdParams.safeParse({ id }).success;
  const { data: post, error, isLoading } = useGetPostQuery(id, { skip: !valid });

  if (!valid || isNotFound(error)) return <PostNotFound />;
  if (isGone(error)) return <PostGone />;
  if (isLoading) {
    return (
      <Stack spacing={2} aria-busy="true" aria-label="Loading the post">
        <Skeleton variant="text" width={240} height={48} />
        <Skeleton variant="rounded" height={360} />
      </Stack>
    );
  }
  if (!post) return <Alert severity="error">This post could not be loaded. Please try again later.</Alert>;

  return (
    <Stack spacing={3}>
      <title>{`Edit ${post.title} · Forum`}</title>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        Edit Post
      </Typography>
      {post.byMe ? <EditPostForm key={post._id} post={post} /> : <Alert severity="info">Only its author can edit this post.</Alert>}
    </Stack>
  );
}

function EditPostForm({ post }: { post: PostDetail }) {
  const [editPost, { isLoading }] = useEditPostMutation();
  const toast = useToast();
  const navigate = useNavigate();
  const attemptKey = useAttemptKey();
  const back = postPath(post._id);

  const send = async (fields: PostFields): Promise<FieldErrors | undefined> => {
    const edit = changesOf(post, fields);
    if (Object.keys(edit).length === 0) {
      toast({ message: 'Nothing has changed: there is nothing to save.', severity: 'info' });
      return undefined;
    }
    try {
      await editPost({ id: post._id, edit, idempotencyKey: attemptKey({ id: post._id, edit }) }).unwrap();
    } catch (error) {
      const server = serverError(error as FetchBaseQueryError);
      const message = server?.status === 404 ? 'Post not found: it may have been deleted.' : (refusalMessageOf(server) ?? 'Failed to update post');
      toast({ message, severity: 'error' });
      return server?.fields;
    }
    toast({ message: 'Your post has been updated.' });
    void navigate(back);
    return undefined;
  };

  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <PostForm
          initial={{ title: post.title, description: post.description, tags: post.tags }}
          label="Edit post"
          submitLabel="Save changes"
          busy={isLoading}
          onSend={send}
          actions={
            <Button component={RouterLink} to={back} size="large">
              Cancel
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}
