import {
  ANONYMOUS_NAME,
  CreatePostRequest,
  ErrorCode,
  fieldErrorsOf,
  POST_DESCRIPTION_RULE,
  POST_TAGS_MAX,
  POST_TITLE_RULE,
  type FieldErrors,
} from '@forum/contracts';
import Lock from '@mui/icons-material/LockOutlined';
import { Alert, Autocomplete, Box, Button, Card, CardContent, Chip, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { BusyButton } from '../../../components/BusyButton';
import { CountedTextField, MarkdownEditor, PersonAvatar } from '@forum/web-ui';
import { useDialogs } from '../../../components/dialog/DialogProvider';
import { useToast } from '../../../components/toast/ToastProvider';
import { useAttemptKey } from '../../../lib/attempt-key';
import { useAuthState } from '../../../lib/auth';
import { limitMessageOf, serverError } from '../../../lib/http-error';
import { useCreatePostMutation } from '../api/create-post';
import { useGetMeQuery } from '../api/get-me';
import { useGetPostCountQuery } from '../api/get-post-count';
import { useGetTagsQuery } from '../../../lib/tags';
import { postLimitState, type PostLimitState } from '../rules/post-limit';

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

type Field = 'title' | 'description' | 'tags';

/**
 * Enter in the Tags field picks the highlighted tag (the Autocomplete does that) and is never the
 * form's implicit submission: with no tag highlighted it does nothing. Only Create Post publishes.
 */
const keepEnterInTags = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

function NewPostForm({ authorName, authorPhoto }: { authorName: string; authorPhoto: string }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const tagOptions = useGetTagsQuery();
  const [createPost, { isLoading }] = useCreatePostMutation();
  const toast = useToast();
  const dialogs = useDialogs();
  const navigate = useNavigate();

  const attemptKey = useAttemptKey();
  // set at once on submit (the mutation's isLoading arrives a render later): a second submit meanwhile sends nothing
  const sending = useRef(false);

  const titleRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);

  /** One message per field, and the first field in error takes the focus so it is read out. */
  const showErrors = (fields: FieldErrors) => {
    const next = {
      title: fields.title?.[0],
      description: fields.description?.[0],
      tags: Object.entries(fields).find(([path]) => path.startsWith('tags'))?.[1][0],
    };
    setErrors(next);
    if (next.title) titleRef.current?.focus();
    else if (next.description) descriptionRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const parsed = CreatePostRequest.safeParse({ title, description, tags });
    if (!parsed.success) {
      showErrors(fieldErrorsOf(parsed.error));
      return;
    }
    sending.current = true;
    try {
      await createPost({ post: parsed.data, idempotencyKey: attemptKey(parsed.data) }).unwrap();
    } catch (error) {
      sending.current = false;
      const server = serverError(error as FetchBaseQueryError);
      if (server?.code === ErrorCode.POST_LIMIT_REACHED) {
        // the count shown was stale: the page turns into the limit panel once it is read again
        await dialogs.alert({ title: 'Post Limit Reached', message: server.message });
        return;
      }
      if (server) showErrors(server.fields);
      toast({ message: limitMessageOf(server) ?? 'Failed to create post', severity: 'error' });
      return;
    }
    toast({ message: 'Your post has been created.' });
    void navigate('/dashboard/my-post');
  };

  const clear = (field: Field) => setErrors((current) => ({ ...current, [field]: undefined }));

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
        <Box component="form" onSubmit={(event) => void submit(event)} noValidate aria-label="New post">
          <Stack spacing={2.5}>
            <CountedTextField
              label="Post Title *"
              inputRef={titleRef}
              value={title}
              rule={POST_TITLE_RULE}
              onChange={(event) => {
                setTitle(event.target.value);
                clear('title');
              }}
              error={!!errors.title}
              helperText={errors.title}
              slotProps={{ htmlInput: { 'aria-required': true } }}
              fullWidth
            />
            <MarkdownEditor
              label="Post Description"
              value={description}
              onValueChange={(value) => {
                setDescription(value);
                clear('description');
              }}
            >
              <CountedTextField
                label="Post Description *"
                inputRef={descriptionRef}
                value={description}
                rule={POST_DESCRIPTION_RULE}
                onChange={(event) => {
                  setDescription(event.target.value);
                  clear('description');
                }}
                error={!!errors.description}
                helperText={errors.description}
                slotProps={{ htmlInput: { 'aria-required': true } }}
                multiline
                rows={6}
                fullWidth
              />
            </MarkdownEditor>
            <Autocomplete
              multiple
              disableCloseOnSelect
              autoHighlight
              onKeyDown={keepEnterInTags}
              options={tagOptions.data ?? []}
              loading={tagOptions.isLoading}
              value={tags}
              onChange={(_event, value) => {
                setTags(value);
                clear('tags');
              }}
              getOptionDisabled={(option) => tags.length >= POST_TAGS_MAX && !tags.includes(option)}
              filterSelectedOptions
              renderValue={(value, getItemProps) =>
                value.map((tag, index) => {
                  const { key, ...itemProps } = getItemProps({ index });
                  return <Chip key={key} label={`#${tag}`} size="small" color="primary" variant="outlined" {...itemProps} />;
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Tags (Select at least one)"
                  error={!!errors.tags}
                  helperText={errors.tags ?? (tagOptions.isError ? 'The tags could not be loaded.' : `Up to ${POST_TAGS_MAX} tags.`)}
                />
              )}
            />
            <Box>
              <BusyButton type="submit" variant="contained" size="large" busy={isLoading}>
                Create Post
              </BusyButton>
            </Box>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
