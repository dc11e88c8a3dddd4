import { WARNING_REASON_MAX, type TextRule } from '@forum/contracts';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, useMediaQuery, useTheme } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Form, useNotify, useRefresh } from 'react-admin';
import { serverFieldMessages, serverMessage } from '../dataProvider';
import { CountedTextInput } from './CountedTextInput';
import { requiredText } from './requiredText';

/** A warning's reason (optional: a warning may say nothing more than that it is one). */
export const WARNING_REASON_RULE: TextRule = { kind: 'body', label: 'Reason', max: WARNING_REASON_MAX };

export interface ReasonDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** What happens, in a sentence above the reason. */
  description: ReactNode;
  /** The reason's rule (contracts): its label, limit and whether it is required. */
  rule: TextRule;
  /** Fields before the reason (a suspension's period). */
  fields?: ReactNode;
  defaultValues?: Record<string, unknown>;
  confirmLabel: string;
  /** Sends the command with the form's values; resolves once it is accepted. */
  run: (values: Record<string, unknown>) => Promise<unknown>;
  success: string;
  failure: string;
}

/**
 * A moderation verb that needs a reason (hide, warn, suspend): a dialog with the reason counted
 * against its rule, pessimistic; the server's refusals show on their fields and in a toast, and on
 * success the page is read again at the command's position.
 */
export function ReasonDialog({ open, onClose, title, description, rule, fields, defaultValues, confirmLabel, run, success, failure }: ReasonDialogProps) {
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const notify = useNotify();
  const refresh = useRefresh();
  const { mutateAsync, isPending } = useMutation({ mutationFn: run });

  const submit = async (values: Record<string, unknown>) => {
    const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
    try {
      await mutateAsync({ ...values, ...(reason ? { reason } : { reason: undefined }) });
    } catch (error) {
      notify(serverMessage(error, failure), { type: 'error' });
      const messages = serverFieldMessages(error);
      return Object.keys(messages).length > 0 ? messages : undefined;
    }
    notify(success, { type: 'success' });
    onClose();
    refresh();
    return undefined;
  };

  return (
    <Dialog open={open} onClose={isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={phone}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Form mode="onChange" onSubmit={submit} noValidate disableInvalidFormNotification defaultValues={{ reason: '', ...defaultValues }}>
        <DialogContent dividers>
          <DialogContentText sx={{ mb: 2 }}>{description}</DialogContentText>
          {fields}
          <CountedTextInput
            source="reason"
            label={rule.required ? rule.label : `${rule.label} (optional)`}
            validate={rule.required ? [requiredText(rule.required)] : []}
            rule={rule}
            multiline
            minRows={2}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={isPending}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
