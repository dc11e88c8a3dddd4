import { CreatePostRequest, fieldErrorsOf, POST_DESCRIPTION_RULE, POST_TAGS_MAX, POST_TITLE_RULE, type FieldErrors } from '@forum/contracts';
import { Autocomplete, Box, Chip, Stack, TextField } from '@mui/material';
import { useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CountedTextField, MarkdownEditor } from '@forum/web-ui';
import { BusyButton } from '../../../components/BusyButton';
import { useSuggestMentions } from '../../../lib/mentions';
import { useGetTagsQuery } from '../../../lib/tags';

/** A post's fields as the form sends them (the create rules: title, description, tags). */
export type PostFields = CreatePostRequest;

type Field = 'title' | 'description' | 'tags';

/**
 * Enter in the Tags field picks the highlighted tag (the Autocomplete does that) and is never the
 * form's implicit submission: with no tag highlighted it does nothing. Only the submit button sends.
 */
const keepEnterInTags = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

export interface PostFormProps {
  /** The fields as they start: empty for a new post, the post's own when it is edited. */
  initial?: PostFields;
  /** The form's accessible name ("New post", "Edit post"). */
  label: string;
  /** What the submit button says ("Create Post", "Save changes"). */
  submitLabel: string;
  busy: boolean;
  /**
   * Sends the fields once they pass the create rules; answers the server's field messages when it
   * refused them (the form shows them on their fields), nothing when it took them or refused otherwise.
   */
  onSend: (fields: PostFields) => Promise<FieldErrors | undefined>;
  /** What comes before the submit button's row (Cancel, beside it). */
  actions?: ReactNode;
}

/**
 * Add Post's form (spec §2 Create New Post), also the edit page's: the title and the description
 * with their counters (the description in the Markdown editor), the tags, one message per field
 * and the first field in error focused, so it is read out.
 */
export function PostForm({ initial, label, submitLabel, busy, onSend, actions }: PostFormProps) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [tags, setTags] = useState<string[]>(initial?.tags ?? []);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const tagOptions = useGetTagsQuery();
  const suggest = useSuggestMentions();

  // set at once on submit (the mutation's isLoading arrives a render later): a second submit meanwhile sends nothing
  const sending = useRef(false);
  const titleRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);

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
      const refused = await onSend(parsed.data);
      if (refused) showErrors(refused);
    } finally {
      sending.current = false;
    }
  };

  const clear = (field: Field) => setErrors((current) => ({ ...current, [field]: undefined }));

  return (
    <Box component="form" onSubmit={(event) => void submit(event)} noValidate aria-label={label}>
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
          suggest={suggest}
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
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <BusyButton type="submit" variant="contained" size="large" busy={busy}>
            {submitLabel}
          </BusyButton>
          {actions}
        </Stack>
      </Stack>
    </Box>
  );
}
