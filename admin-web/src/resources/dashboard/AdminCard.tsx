import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import type { AdminStats } from '@forum/contracts';
import { PersonAvatar } from '@forum/web-ui';
import { Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { ADMIN_ROLE } from '../../permissions';

/** Spec §2 Admin dashboard: the signed-in admin's card (photo, name, email, role), as the forum has them. */
export function AdminCard({ admin }: { admin: AdminStats['admin'] | undefined }) {
  return (
    <Card component="section" aria-label="Admin card" sx={{ height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
      <CardContent>
        <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', py: 1 }}>
          {admin ? (
            // the name is written beside it: the photo needs no text of its own
            <PersonAvatar name={admin.name} photo={admin.photoURL} size={96} />
          ) : (
            <Skeleton variant="circular" width={96} height={96} />
          )}
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {admin ? admin.name : <Skeleton width={160} />}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {admin ? admin.email : <Skeleton width={200} />}
          </Typography>
          {admin &&
            (admin.role === ADMIN_ROLE ? (
              <Chip color="primary" icon={<AdminPanelSettingsOutlined />} label="Admin" />
            ) : (
              <Chip variant="outlined" label="User" />
            ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
