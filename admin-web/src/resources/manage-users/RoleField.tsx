import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { ADMIN_ROLE } from '../../authProvider';
import type { UserRecord } from './types';

/** Spec §2 Manage Users: the role as a badge; admins stand out. */
export function RoleField() {
  const user = useRecordContext<UserRecord>();
  if (!user) return null;
  return user.role === ADMIN_ROLE ? (
    <Chip size="small" color="primary" icon={<AdminPanelSettingsOutlined />} label="Admin" />
  ) : (
    <Chip size="small" variant="outlined" label="User" />
  );
}
