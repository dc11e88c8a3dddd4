import { MODERATION_REASON_RULE } from '@forum/contracts';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DoneOutlined from '@mui/icons-material/DoneOutlined';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { Button, Stack } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useDataProvider, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import { ReasonDialog, WARNING_REASON_RULE } from '../../components/ReasonDialog';
import { SuspendDialog } from '../../components/SuspendDialog';
import type { ForumDataProvider, QueueRecord } from '../../dataProvider';
import { useConsolePermissions } from '../../permissions';
import { itemLabel } from './QueueFields';

/** A button that opens its dialog (`dialog` gets whether it is open and how to close it). */
function DialogButton({
  label,
  ariaLabel,
  icon,
  dialog,
}: {
  label: string;
  ariaLabel: string;
  icon: ReactNode;
  dialog: (open: boolean, close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" variant="outlined" startIcon={icon} aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {dialog(open, () => setOpen(false))}
    </>
  );
}

/**
 * An open row's actions (issue #43.2): Dismiss, Hide (with the reason its author is told), Delete
 * (confirmed), Warn author and Suspend author (both name the item, so the queue counts it handled).
 * What the server would refuse is not offered: nobody acts on an admin's account, a moderator not on
 * a moderator's (STAFF_PROTECTED), a hidden item is not hidden again.
 */
export function QueueActions() {
  const item = useRecordContext<QueueRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { role, may } = useConsolePermissions('reports');
  if (!item || item.handled) return null;
  const name = itemLabel(item);
  const what = item.kind === 'post' ? 'post' : 'comment';
  const protectedAuthor = item.author.role === 'admin' || (item.author.role === 'moderator' && role !== 'admin');
  const authorId = item.author._id;
  const about = { kind: item.kind, id: item._id };

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {may('dismiss') && (
        <ConfirmedAction
          label="Dismiss"
          ariaLabel={`Dismiss the reports of the ${name}`}
          icon={<DoneOutlined />}
          question={`The reports are closed and the ${what} stays as it is.`}
          confirmLabel="Dismiss reports"
          run={() => dataProvider.dismissReports(item.kind, item._id)}
          success="Reports dismissed"
          failure="Failed to dismiss the reports"
          serverMessageFirst
          refresh
        />
      )}
      {may('hide') && !item.hidden && !item.deleted && !protectedAuthor && (
        <DialogButton
          label="Hide"
          ariaLabel={`Hide the ${name}`}
          icon={<VisibilityOffOutlined />}
          dialog={(open, close) => (
            <ReasonDialog
              open={open}
              onClose={close}
              title={`Hide this ${what}?`}
              description={`Only its author and staff will see it, marked as hidden with this reason. ${item.author.name} is told the reason.`}
              rule={MODERATION_REASON_RULE}
              confirmLabel="Hide"
              run={(values) => dataProvider.hide(item.kind, item._id, String(values.reason))}
              success={`The ${what} is hidden`}
              failure={`Failed to hide the ${what}`}
            />
          )}
        />
      )}
      {may('delete') && !item.deleted && (
        <ConfirmedAction
          label="Delete"
          ariaLabel={`Delete the ${name}`}
          icon={<DeleteOutlined />}
          color="error"
          destructive
          question={`The ${what} is deleted for everyone. This cannot be undone.`}
          confirmLabel={`Delete ${what}`}
          run={() => dataProvider.deleteItem(item.kind, item._id)}
          success={`The ${what} is deleted`}
          failure={`Failed to delete the ${what}`}
          serverMessageFirst
          refresh
        />
      )}
      {may('warn') && authorId && !item.warned && !protectedAuthor && (
        <DialogButton
          label="Warn author"
          ariaLabel={`Warn author ${item.author.name} about the ${name}`}
          icon={<ReportProblemOutlined />}
          dialog={(open, close) => (
            <ReasonDialog
              open={open}
              onClose={close}
              title={`Warn ${item.author.name}?`}
              description={`They get a warning about this ${what}, with the reason when you give one.`}
              rule={WARNING_REASON_RULE}
              confirmLabel="Warn"
              run={(values) =>
                dataProvider.warnMember(authorId, { ...(typeof values.reason === 'string' && values.reason && { reason: values.reason }), about })
              }
              success="Warned! User has been warned"
              failure="Failed to warn user"
            />
          )}
        />
      )}
      {may('suspend') && authorId && !protectedAuthor && (
        <DialogButton
          label="Suspend author"
          ariaLabel={`Suspend author ${item.author.name} of the ${name}`}
          icon={<BlockOutlined />}
          dialog={(open, close) => <SuspendDialog open={open} onClose={close} member={{ id: authorId, name: item.author.name }} about={about} />}
        />
      )}
    </Stack>
  );
}

/** A handled row's way back: Unhide a hidden item that is not deleted (hidden posts are in no other list of the console). */
export function UnhideAction() {
  const item = useRecordContext<QueueRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { may } = useConsolePermissions('reports');
  if (!item?.hidden || item.deleted || !may('hide')) return null;
  const what = item.kind === 'post' ? 'post' : 'comment';
  return (
    <ConfirmedAction
      label="Unhide"
      ariaLabel={`Unhide the ${itemLabel(item)}`}
      icon={<VisibilityOutlined />}
      question={`The ${what} is shown to everyone again, and its author is told.`}
      confirmLabel="Unhide"
      run={() => dataProvider.unhide(item.kind, item._id)}
      success={`The ${what} is visible again`}
      failure={`Failed to unhide the ${what}`}
      serverMessageFirst
      refresh
    />
  );
}
