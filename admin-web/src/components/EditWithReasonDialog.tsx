import { EDIT_REASON_RULE } from '@forum/contracts';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, useTheme } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Form, useGetIdentity, useNotify, useRefresh } from 'react-admin';
import { serverFieldMessages, serverMessage } from '../dataProvider';
import { CountedTextInput } from './CountedTextInput';
import { requiredText } from './requiredText';

const validateReason = [requiredText('Reason must not be empty')];

type Values = Record<string, string>;

export interface EditWithReasonProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's title. */
  title: string;
  /** The author's email, when known: a reason is required unless it is the admin's own. */
  authorEmail?: string;
  /** The fields as they are now (their names are the request's). */
  values: Values;
  /** The content's own fields (inputs of the form). */
  fields: ReactNode;
  /** Sends the changed fields and the reason; resolves once the command is accepted. */
  save: (values: Values) => Promise<unknown>;
}

/**
 * The console's edit of a post or a comment: a dialog with its fields and a Reason (required when
 * it is someone else's: the server refuses such an edit without one, and shows the reason with the
 * revision). The server's refusals show on their fields and in a toast; on success the list is read again.
 */
export function EditWithReasonDialog({ open, onClose, title, authorEmail, values, fields, save }: EditWithReasonProps) {
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const notify = useNotify();
  const refresh = useRefresh();
  const { identity } = useGetIdentity();
  const own = authorEmail !== undefined && identity?.email === authorEmail;
  const { mutateAsync, isPending } = useMutation({ mutationFn: save });

  const submit = async (submitted: Values) => {
    // only the content's own fields: the form also holds the record of the row it sits in
    const changed = Object.fromEntries(Object.keys(values).flatMap((name) => (submitted[name] !== values[name] ? [[name, submitted[name]]] : [])));
    const reason = submitted.reason?.trim();
    if (Object.keys(changed).length === 0) {
      notify('Nothing has changed: there is nothing to save.', { type: 'info' });
      return undefined;
    }
    try {
      await mutateAsync({ ...changed, ...(reason && { reason }) });
    } catch (error) {
      notify(serverMessage(error, 'The edit could not be saved'), { type: 'error' });
      const messages = serverFieldMessages(error);
      return Object.keys(messages).length > 0 ? messages : undefined;
    }
    notify('Saved: the edit is in, with its revision.', { type: 'success' });
    onClose();
    refresh();
    return undefined;
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Form
        mode="onChange"
        onSubmit={(submitted: Record<string, unknown>) => submit(submitted as Values)}
        noValidate
        disableInvalidFormNotification
        defaultValues={{ ...values, reason: '' }}
      >
        <DialogContent dividers>
          {fields}
          <CountedTextInput
            source="reason"
            label={own ? 'Reason (optional)' : 'Reason'}
            validate={own ? [] : validateReason}
            rule={EDIT_REASON_RULE}
            helperText="Shown with the revision."
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={isPending}>
            {isPending ? 'Saving...' : 'Save'}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
