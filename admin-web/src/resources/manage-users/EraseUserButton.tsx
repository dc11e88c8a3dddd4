import { DELETED_USER_NAME, ERASED_CONTENT_CHOICES, type ErasedContentChoice } from '@forum/contracts';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
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
} from '@mui/material';
import { useId, useState } from 'react';
import { useDataProvider, useGetIdentity, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { serverMessage, type ForumDataProvider } from '../../dataProvider';
import { useConsolePermissions } from '../../permissions';
import type { UserRecord } from './types';

/** What may become of the user's posts and comments, as the dialog offers it. */
const CONTENT_CHOICES: Record<ErasedContentChoice, string> = {
  keep: `Keep them, shown as written by “${DELETED_USER_NAME}”`,
  erase: 'Delete them too',
};

/**
 * 'Delete user' (docs/security/erasure.md): erases another user's account after a dialog that says
 * what happens and asks what becomes of their posts and comments. Not on the admin's own row: their
 * own account goes through their dashboard (the API refuses it too). Pessimistic, then the list is
 * read again at the command's position.
 */
export function EraseUserButton() {
  const user = useRecordContext<UserRecord>();
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [content, setContent] = useState<ErasedContentChoice | null>(null);
  const [pending, setPending] = useState(false);
  const titleId = useId();
  const choiceId = useId();
  const { may } = useConsolePermissions('manage-users');
  if (!user || !may('erase') || (identity && String(identity.id) === String(user.id))) return null;

  const close = () => {
    setOpen(false);
    setContent(null);
  };
  const erase = async () => {
    if (!content) return;
    setPending(true);
    try {
      await dataProvider.eraseUser(String(user.id), content);
      notify('User deleted', { type: 'success' });
      refresh();
      close();
    } catch (error) {
      notify(serverMessage(error, 'Failed to delete the user'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color="error"
        startIcon={<PersonRemoveOutlined />}
        aria-label={`Delete ${user.name}`}
        onClick={() => setOpen(true)}
      >
        Delete
      </Button>
      <Dialog open={open} onClose={pending ? undefined : close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <DialogTitle id={titleId}>Delete {user.name}?</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              Their account is deleted for good: their name, email address and photo are erased from the forum, they are signed out everywhere and can no longer
              sign in with it.
            </DialogContentText>
            <Alert severity="warning">This cannot be undone.</Alert>
            <FormControl required>
              <FormLabel id={choiceId}>Their posts and comments</FormLabel>
              <RadioGroup aria-labelledby={choiceId} value={content ?? ''} onChange={(event) => setContent(event.target.value as ErasedContentChoice)}>
                {ERASED_CONTENT_CHOICES.map((choice) => (
                  <FormControlLabel key={choice} value={choice} control={<Radio />} label={CONTENT_CHOICES[choice]} disabled={pending} />
                ))}
              </RadioGroup>
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button variant="contained" color="error" disabled={content === null} loading={pending} onClick={() => void erase()}>
            Delete user
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
