import { Button, type ButtonProps } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Confirm, useNotify, useRefresh } from 'react-admin';
import { serverMessage } from '../dataProvider';

export interface ConfirmedActionProps {
  /** the button's text */
  label: string;
  /** the button's accessible name when the text alone is ambiguous in a list (e.g. 'Delete tag #React') */
  ariaLabel?: string;
  icon?: ReactNode;
  color?: ButtonProps['color'];
  /** the confirmation: its question (spec §8) and the confirming answer */
  question: string;
  confirmLabel: string;
  title?: string;
  /** the confirming answer destroys something */
  destructive?: boolean;
  /** the command; resolves once it is accepted */
  run: () => Promise<unknown>;
  /** the toast on success */
  success: string;
  /** the toast on failure, unless the server sent a message (`serverMessageFirst`) */
  failure: string;
  serverMessageFirst?: boolean;
  /** read the page's data again after success (at the command's position) */
  refresh?: boolean;
}

/**
 * A moderation verb behind a confirmation (react-admin's Confirm, never window.confirm),
 * pessimistic: the toast comes once the server has accepted or refused it.
 */
export function ConfirmedAction({
  label,
  ariaLabel,
  icon,
  color,
  question,
  confirmLabel,
  title = 'Are you sure?',
  destructive,
  run,
  success,
  failure,
  serverMessageFirst,
  refresh,
}: ConfirmedActionProps) {
  const notify = useNotify();
  const refreshPage = useRefresh();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    setPending(true);
    try {
      await run();
      notify(success, { type: 'success' });
      if (refresh) refreshPage();
    } catch (error) {
      notify(serverMessageFirst ? serverMessage(error, failure) : failure, { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" color={color} startIcon={icon} disabled={pending} aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title={title}
        content={question}
        confirm={confirmLabel}
        {...(destructive ? { confirmColor: 'warning' as const } : {})}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
