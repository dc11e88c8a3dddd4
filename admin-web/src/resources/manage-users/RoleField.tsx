import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { ROLE_LABELS } from '../reports/QueueFields';
import type { UserRecord } from './types';

/** The role as a badge (Member, Moderator, Admin); staff stand out. */
export function RoleField() {
  const user = useRecordContext<UserRecord>();
  if (!user) return null;
  if (user.role === 'admin') return <Chip size="small" color="primary" icon={<AdminPanelSettingsOutlined />} label={ROLE_LABELS.admin} />;
  if (user.role === 'moderator') return <Chip size="small" color="primary" variant="outlined" icon={<ShieldOutlined />} label={ROLE_LABELS.moderator} />;
  return <Chip size="small" variant="outlined" label={ROLE_LABELS.user} />;
}
