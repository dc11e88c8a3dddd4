import { updateMeRequest } from '@forum/contracts';
import { Avatar, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast/ToastProvider';
import { serverError } from '../../../lib/http-error';
import { useUpdateMeMutation } from '../api/update-me';

interface ChangePhotoDialogProps {
  open: boolean;
  current: string;
  onClose: () => void;
  /** The photo the server accepted, to show before the profile is read again. */
  onChanged: (photoURL: string) => void;
}

/** 'Change Photo': a photo address (http or https; empty removes the photo) sent as PATCH /api/me. */
export function ChangePhotoDialog({ open, current, onClose, onChanged }: ChangePhotoDialogProps) {
  const [url, setUrl] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const [updateMe, { isLoading }] = useUpdateMeMutation();
  const toast = useToast();
  const titleId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = updateMeRequest(window.location.origin).safeParse({ photoURL: url.trim() });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Enter a photo address');
      return;
    }
    try {
      await updateMe(parsed.data).unwrap();
    } catch (error) {
      const server = serverError(error as FetchBaseQueryError);
      setProblem(server?.fields.photoURL?.[0] ?? null);
      toast({ message: server?.message ?? 'Failed to change the photo', severity: 'error' });
      return;
    }
    toast({ message: 'Photo updated' });
    onChanged(parsed.data.photoURL ?? '');
    onClose();
  };

  return (
    <Dialog open={open} onClose={isLoading ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>Change Photo</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ alignItems: 'center', pt: 1 }}>
            <Avatar src={url.trim() || undefined} alt="" aria-hidden sx={{ width: 88, height: 88 }} slotProps={{ img: { referrerPolicy: 'no-referrer' } }} />
            <TextField
              autoFocus
              fullWidth
              type="url"
              label="Photo URL"
              placeholder="https://…"
              value={url}
              onChange={(event) => {
                setUrl(event.target.value);
                setProblem(null);
              }}
              error={problem !== null}
              helperText={problem ?? 'The address of a picture on the web; leave empty to remove your photo.'}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
