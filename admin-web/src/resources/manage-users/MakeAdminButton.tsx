import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { useDataProvider, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import type { ForumDataProvider } from '../../dataProvider';
import { ADMIN_ROLE, useConsolePermissions } from '../../permissions';
import type { UserRecord } from './types';

/**
 * Spec §2/§8 'Make Admin' (none for admins: there is no demotion, spec §4): confirmed first,
 * pessimistic (the read side is eventually consistent), then the list is read again at the
 * command's position.
 */
export function MakeAdminButton() {
  const user = useRecordContext<UserRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { may } = useConsolePermissions('manage-users');
  if (!user || user.role === ADMIN_ROLE || !may('make-admin')) return null;
  return (
    <ConfirmedAction
      label="Make Admin"
      icon={<AdminPanelSettingsOutlined />}
      question="This user will become an admin"
      confirmLabel="Yes, make admin"
      run={() => dataProvider.makeAdmin(String(user.id))}
      success="User role updated to admin"
      failure="Failed to update user role"
      refresh
    />
  );
}
