import { checkPhotoUrl, DISPLAY_NAME_RULE, fieldErrorsOf, PHOTO_URL_RULE, updateMeRequest, type FieldErrors, type UpdateMeRequest } from '@forum/contracts';
import { Avatar, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { CountedTextField } from '@forum/web-ui';
import { useToast } from '../../../components/toast/ToastProvider';
import { serverError } from '../../../lib/http-error';
import { imageLoads } from '../../../lib/image-loads';
import { useUpdateMeMutation } from '../api/update-me';

interface ChangePhotoDialogProps {
  open: boolean;
  current: { photoURL: string; name: string };
  onClose: () => void;
  /** What the server accepted, to show before the profile is read again. */
  onChanged: (changes: UpdateMeRequest) => void;
}

type Field = 'photoURL' | 'displayName';

/** Said when the new photo address does not load as a picture here (a page, a broken link). */
const NOT_AN_IMAGE = 'That link did not load as an image. Check the address and try again.';

/** How long the photo address must stay as it is before the preview loads it: typing it fetches nothing half-written. */
const PREVIEW_SETTLE_MS = 400;

/** The first message for each field (the form's own check or the server's). */
const problemsOf = (fields: FieldErrors): Partial<Record<Field, string>> => ({ photoURL: fields.photoURL?.[0], displayName: fields.displayName?.[0] });

/**
 * 'Change Photo': the photo address (https; empty removes the photo) and the display name, sent
 * as PATCH /api/me with what changed. Both are checked as the API checks them (the photo may not
 * point at the forum itself, whose origin is this page's) and counted against their limits. A new
 * photo address must load as an image in this browser before anything is saved: the server cannot
 * tell a picture from a page without fetching it, and a saved page would show as the default avatar.
 * The preview shows only an address the check takes, once it has stayed so for a moment: nothing
 * else, and nothing half-typed, is fetched.
 */
export function ChangePhotoDialog({ open, current, onClose, onChanged }: ChangePhotoDialogProps) {
  const [url, setUrl] = useState(current.photoURL);
  const [name, setName] = useState(current.name);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [updateMe, { isLoading: saving }] = useUpdateMeMutation();
  const [checking, setChecking] = useState(false);
  const isLoading = saving || checking;
  const toast = useToast();
  const titleId = useId();
  const typed = checkPhotoUrl(url.trim(), window.location.origin);
  const address = typed.ok ? typed.value : '';
  const [settled, setSettled] = useState(address);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(address), PREVIEW_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [address]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changes = { ...(url.trim() !== current.photoURL && { photoURL: url.trim() }), ...(name !== current.name && { displayName: name }) };
    if (Object.keys(changes).length === 0) return onClose();
    const parsed = updateMeRequest(window.location.origin).safeParse(changes);
    if (!parsed.success) {
      setProblems(problemsOf(fieldErrorsOf(parsed.error)));
      return;
    }
    if (parsed.data.photoURL) {
      setChecking(true);
      const loads = await imageLoads(parsed.data.photoURL);
      setChecking(false);
      if (!loads) {
        setProblems({ photoURL: NOT_AN_IMAGE });
        return;
      }
    }
    try {
      await updateMe(parsed.data).unwrap();
    } catch (error) {
      const server = serverError(error as FetchBaseQueryError);
      setProblems(problemsOf(server?.fields ?? {}));
      toast({ message: server?.message ?? 'Failed to change your profile', severity: 'error' });
      return;
    }
    toast({ message: 'Profile updated' });
    onChanged(parsed.data);
    onClose();
  };

  return (
    <Dialog open={open} onClose={isLoading ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>Your photo and name</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ alignItems: 'center', pt: 1 }}>
            <Avatar
              src={(address === settled && address) || undefined}
              alt=""
              aria-hidden
              sx={{ width: 88, height: 88 }}
              slotProps={{ img: { referrerPolicy: 'no-referrer' } }}
            />
            <CountedTextField
              // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the dialog opens on the user's action; its first field takes the focus (MUI's Dialog pattern)
              autoFocus
              fullWidth
              type="url"
              label="Photo URL"
              placeholder="https://…"
              value={url}
              rule={PHOTO_URL_RULE}
              onChange={(event) => {
                setUrl(event.target.value);
                setProblems((current) => ({ ...current, photoURL: undefined }));
              }}
              error={!!problems.photoURL}
              helperText={problems.photoURL ?? 'The address of a picture on the web (https); leave empty to remove your photo.'}
            />
            <CountedTextField
              fullWidth
              label="Display name"
              autoComplete="nickname"
              value={name}
              rule={DISPLAY_NAME_RULE}
              onChange={(event) => {
                setName(event.target.value);
                setProblems((current) => ({ ...current, displayName: undefined }));
              }}
              error={!!problems.displayName}
              helperText={problems.displayName}
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
