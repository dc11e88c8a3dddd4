import { DELETED_USER_NAME, ERASED_CONTENT_CHOICES, type ErasedContentChoice } from '@forum/contracts';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast/ToastProvider';
import { useAuth } from '../../../lib/auth';
import { serverError } from '../../../lib/http-error';
import { useDeleteMeMutation } from '../api/delete-me';

/** What the member types to confirm. */
const CONFIRM_WORD = 'DELETE';

/** What may become of the member's posts and comments, as the dialog offers it. */
const CONTENT_CHOICES: Record<ErasedContentChoice, string> = {
  keep: `Keep them, shown as written by “${DELETED_USER_NAME}”`,
  erase: 'Delete them too',
};

interface DeleteAccountDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * 'Delete my account': says what happens, asks whether the member's posts and comments stay
 * (by 'Deleted user') or go, and wants the word DELETE typed; then erases the account
 * (DELETE /api/me) and signs out. Keeping them is chosen from the start: it is the choice that
 * takes least away (the account's own data goes either way), and the one that cannot be undone
 * (deleting them too) is chosen only on purpose. A word typed that is not DELETE says why the
 * button is still off.
 */
export function DeleteAccountDialog({ open, onClose }: DeleteAccountDialogProps) {
  const [content, setContent] = useState<ErasedContentChoice>('keep');
  const [typed, setTyped] = useState('');
  const [deleteMe, { isLoading }] = useDeleteMeMutation();
  const [leaving, setLeaving] = useState(false);
  const auth = useAuth();
  const toast = useToast();
  const titleId = useId();
  const choiceId = useId();
  const busy = isLoading || leaving;
  const ready = typed.trim() === CONFIRM_WORD;
  const mistyped = typed.trim() !== '' && !ready;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    try {
      await deleteMe({ content }).unwrap();
    } catch (error) {
      toast({ message: serverError(error as FetchBaseQueryError)?.message ?? 'Your account could not be deleted. Please try again.', severity: 'error' });
      return;
    }
    setLeaving(true);
    void auth.logout({ redirectUri: new URL('/', window.location.origin).href, erased: true });
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>Delete your account?</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              Your account will be deleted for good. Your name, email address and photo are erased from the forum, you can no longer sign in with this account,
              and you will be signed out now.
            </DialogContentText>
            <Alert severity="warning">This cannot be undone.</Alert>
            <FormControl required>
              <FormLabel id={choiceId}>Your posts and comments</FormLabel>
              <RadioGroup aria-labelledby={choiceId} value={content} onChange={(event) => setContent(event.target.value as ErasedContentChoice)}>
                {ERASED_CONTENT_CHOICES.map((choice) => (
                  <FormControlLabel key={choice} value={choice} control={<Radio />} label={CONTENT_CHOICES[choice]} disabled={busy} />
                ))}
              </RadioGroup>
            </FormControl>
            <TextField
              label={`Type ${CONFIRM_WORD} to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              helperText={mistyped ? `Type ${CONFIRM_WORD} in capital letters` : undefined}
              autoComplete="off"
              disabled={busy}
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={!ready} loading={busy}>
            Delete my account
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
