import { Alert } from '@mui/material';
import { useAuthState } from '../../../lib/auth';
import { suspensionText } from '../../../lib/suspension';
import { useGetMeQuery } from '../api/get-me';

/**
 * On every page while the signed-in member is suspended (GET /api/me's `suspension`): why, and until
 * when in their locale; they may still read. Nothing otherwise.
 */
export function SuspensionBanner() {
  const { user } = useAuthState();
  const suspension = useGetMeQuery(undefined, { skip: !user }).data?.suspension;
  if (!user || !suspension) return null;
  return (
    <Alert severity="warning" role="status" sx={{ mb: 3 }}>
      {suspensionText(suspension)}
    </Alert>
  );
}
