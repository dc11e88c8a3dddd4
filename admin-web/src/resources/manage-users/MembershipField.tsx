import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import { Stack, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import type { UserRecord } from './types';

/** Spec §2 Manage Users: 'Premium' for members (Gold), 'Basic' for everyone else. */
export function MembershipField() {
  const user = useRecordContext<UserRecord>();
  if (!user) return null;
  if (!user.isMember) return <Typography variant="body2">Basic</Typography>;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <WorkspacePremiumOutlined fontSize="small" sx={{ color: '#b8860b' }} aria-hidden />
      <Typography variant="body2">Premium</Typography>
    </Stack>
  );
}
