import { COMMENT_RULE, EditCommentRequest, fieldErrorsOf, type CommentItem } from '@forum/contracts';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, useTheme } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { CountedTextField, MarkdownEditor } from '@forum/web-ui';
import { BusyButton } from '../../../components/BusyButton';
import { useToast } from '../../../components/toast/ToastProvider';
import { useSuggestMentions } from '../../../lib/mentions';
import { useAttemptKey } from '../../../lib/attempt-key';
import { refusalMessageOf, serverError } from '../../../lib/http-error';
import { useEditCommentMutation } from '../api/edit-comment';

/** The author's comment in the comment form's counted field (with the Markdown editor), Save or Cancel. */
function EditCommentDialog({ comment, open, onClose }: { comment: CommentItem; open: boolean; onClose: () => void }) {
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [text, setText] = useState(comment.text);
  const [error, setError] = useState<string | undefined>();
  const [editComment, { isLoading }] = useEditCommentMutation();
  const toast = useToast();
  const suggest = useSuggestMentions();
  const attemptKey = useAttemptKey();
  const field = useRef<HTMLTextAreaElement>(null);
  const sending = useRef(false);

  const refuse = (message: string | undefined) => {
    setError(message);
    field.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const parsed = EditCommentRequest.safeParse({ text });
    if (!parsed.success) return refuse(fieldErrorsOf(parsed.error).text?.[0]);
    if (parsed.data.text === comment.text) return onClose();
    sending.current = true;
    try {
      await editComment({ commentId: comment._id, postId: comment.postId, edit: parsed.data, idempotencyKey: attemptKey(parsed.data) }).unwrap();
    } catch (failure) {
      const server = serverError(failure as FetchBaseQueryError);
      const message = server?.status === 404 ? 'Comment not found: it may have been removed.' : (refusalMessageOf(server) ?? 'Failed to update comment');
      toast({ message, severity: 'error' });
      refuse(server?.fields.text?.[0]);
      return;
    } finally {
      sending.current = false;
    }
    toast({ message: 'Your comment has been updated.' });
    onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={phone}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>Edit your comment</DialogTitle>
        <DialogContent>
          <MarkdownEditor
            suggest={suggest}
            label="Comment"
            value={text}
            onValueChange={(value) => {
              setText(value);
              setError(undefined);
            }}
          >
            <CountedTextField
              value={text}
              rule={COMMENT_RULE}
              inputRef={field}
              onChange={(event) => {
                setText(event.target.value);
                setError(undefined);
              }}
              error={!!error}
              helperText={error}
              slotProps={{ htmlInput: { 'aria-label': 'Comment' } }}
              // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the dialog opens on the author's Edit; the text it is for takes the focus (MUI's Dialog pattern)
              autoFocus
              multiline
              minRows={3}
              maxRows={12}
              fullWidth
            />
          </MarkdownEditor>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <BusyButton type="submit" variant="contained" busy={isLoading}>
            Save
          </BusyButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Edit on the author's own comment: opens the edit dialog, from the comment's current text each time. */
export function EditCommentButton({ comment }: { comment: CommentItem }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<EditOutlined />} onClick={() => setOpen(true)} aria-haspopup="dialog" sx={{ py: 0 }}>
        Edit
      </Button>
      {open && <EditCommentDialog comment={comment} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
