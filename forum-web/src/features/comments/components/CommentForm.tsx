import { Box, Stack } from '@mui/material';
import { COMMENT_RULE } from '@forum/contracts';
import { useState, type FormEvent } from 'react';
import { BusyButton } from '../../../components/BusyButton';
import { CountedTextField, MarkdownEditor, overLimit } from '@forum/web-ui';
import { useToast } from '../../../components/toast/ToastProvider';
import { useSuggestMentions } from '../../../lib/mentions';
import { refusalMessage } from '../../../lib/http-error';
import { useAddCommentMutation } from '../api/add-comment';

/** Spec §4 Comment posting: an empty comment (after trimming) is ignored, one over its limit (COMMENT_RULE) is not sent (its counter says so); after success the input clears. */
export function CommentForm({ postId }: { postId: string }) {
  const [text, setText] = useState('');
  const [addComment, { isLoading }] = useAddCommentMutation();
  const toast = useToast();
  const suggest = useSuggestMentions();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed.length === 0 || overLimit(trimmed, COMMENT_RULE) || isLoading) return;
    const result = await addComment({ postId, text: trimmed });
    if ('error' in result) {
      toast({ message: refusalMessage(result.error) ?? 'Failed to post comment', severity: 'error' });
      return;
    }
    setText('');
  };

  return (
    <Stack
      component="form"
      onSubmit={(event) => void submit(event)}
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      sx={{ alignItems: { sm: 'flex-start' } }}
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <MarkdownEditor label="Comment" value={text} onValueChange={setText} suggest={suggest}>
          <CountedTextField
            value={text}
            rule={COMMENT_RULE}
            onChange={(event) => setText(event.target.value)}
            placeholder="Write a comment..."
            slotProps={{ htmlInput: { 'aria-label': 'Write a comment' } }}
            multiline
            minRows={2}
            maxRows={10}
            fullWidth
            size="small"
          />
        </MarkdownEditor>
      </Box>
      <BusyButton type="submit" variant="contained" busy={isLoading} sx={{ flexShrink: 0, minWidth: 96 }}>
        {isLoading ? 'Posting...' : 'Post'}
      </BusyButton>
    </Stack>
  );
}
