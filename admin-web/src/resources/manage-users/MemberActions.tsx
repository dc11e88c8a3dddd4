import BlockOutlined from '@mui/icons-material/BlockOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import RemoveModeratorOutlined from '@mui/icons-material/RemoveModeratorOutlined';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useGetIdentity, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import { ReasonDialog, WARNING_REASON_RULE } from '../../components/ReasonDialog';
import { SuspendDialog } from '../../components/SuspendDialog';
import type { ForumDataProvider } from '../../dataProvider';
import { useConsolePermissions } from '../../permissions';
import type { UserRecord } from './types';

/**
 * Grant or revoke the moderator role (admins only; an admin's row has neither: an admin can already
 * do everything a moderator can).
 */
export function ModeratorButton() {
  const user = useRecordContext<UserRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { may } = useConsolePermissions('manage-users');
  if (!user || user.role === 'admin' || !may('grant-moderator')) return null;
  const moderator = user.role === 'moderator';
  return (
    <ConfirmedAction
      label={moderator ? 'Revoke moderator' : 'Make moderator'}
      ariaLabel={`${moderator ? 'Revoke moderator from' : 'Make moderator'} ${user.name}`}
      icon={moderator ? <RemoveModeratorOutlined /> : <ShieldOutlined />}
      question={
        moderator
          ? `${user.name} will no longer be a moderator: the console closes for them.`
          : `${user.name} will be a moderator: they can work the reports, hide, lock and pin posts, and warn or suspend members.`
      }
      confirmLabel={moderator ? 'Yes, revoke' : 'Yes, make moderator'}
      run={() => dataProvider.setModerator(String(user.id), !moderator)}
      success={moderator ? 'Moderator role revoked' : 'User role updated to moderator'}
      failure="Failed to update user role"
      serverMessageFirst
      refresh
    />
  );
}

/**
 * Warn, Suspend and Lift for a member's row: not on staff a caller may not act on (nobody on an
 * admin, a moderator not on a moderator: STAFF_PROTECTED) nor on the caller's own row.
 */
export function DisciplineButtons() {
  const user = useRecordContext<UserRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { identity } = useGetIdentity();
  const { role, may } = useConsolePermissions('manage-users');
  const [dialog, setDialog] = useState<'warn' | 'suspend' | null>(null);
  if (!user || (identity && String(identity.id) === String(user.id))) return null;
  if (user.role === 'admin' || (user.role === 'moderator' && role !== 'admin')) return null;
  const member = { id: String(user.id), name: user.name };
  const close = () => setDialog(null);
  return (
    <>
      {may('warn') && (
        <Button size="small" variant="outlined" startIcon={<ReportProblemOutlined />} aria-label={`Warn ${user.name}`} onClick={() => setDialog('warn')}>
          Warn
        </Button>
      )}
      {may('suspend') &&
        (user.suspension ? (
          <ConfirmedAction
            label="Lift"
            ariaLabel={`Lift the suspension of ${user.name}`}
            icon={<LockOpenOutlined />}
            question={`${user.name} can write again at once.`}
            confirmLabel="Lift suspension"
            run={() => dataProvider.liftSuspension(member.id)}
            success="Suspension lifted"
            failure="Failed to lift the suspension"
            serverMessageFirst
            refresh
          />
        ) : (
          <Button size="small" variant="outlined" startIcon={<BlockOutlined />} aria-label={`Suspend ${user.name}`} onClick={() => setDialog('suspend')}>
            Suspend
          </Button>
        ))}
      <ReasonDialog
        open={dialog === 'warn'}
        onClose={close}
        title={`Warn ${user.name}?`}
        description="They get a warning, with the reason when you give one."
        rule={WARNING_REASON_RULE}
        confirmLabel="Warn"
        run={(values) => dataProvider.warnMember(member.id, typeof values.reason === 'string' && values.reason ? { reason: values.reason } : {})}
        success="Warned! User has been warned"
        failure="Failed to warn user"
      />
      <SuspendDialog open={dialog === 'suspend'} onClose={close} member={member} />
    </>
  );
}
