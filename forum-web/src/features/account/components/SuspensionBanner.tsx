import { Alert } from '@mui/material';
import { useState } from 'react';
import { useAuthState } from '../../../lib/auth';
import { suspensionText } from '../../../lib/suspension';
import { useGetMeQuery } from '../api/get-me';
import { useLiveAccount } from '../hooks/use-live-account';

/**
 * On every page while the signed-in member is suspended (GET /api/me's `suspension`): why, and until
 * when in their locale; they may still read. Nothing otherwise, nor once its end has passed. It comes
 * and goes as staff act, without a reload (the stream's `account`).
 */
export function SuspensionBanner() {
  const { user } = useAuthState();
  useLiveAccount(user !== null);
  const suspension = useGetMeQuery(undefined, { skip: !user }).data?.suspension;
  // when the page was opened: a suspension that ended before it shows none (the server no longer refuses)
  const [openedAt] = useState(Date.now);
  if (!user || !suspension || (suspension.until !== null && Date.parse(suspension.until) <= openedAt)) return null;
  return (
    <Alert severity="warning" role="status" sx={{ mb: 3 }}>
      {suspensionText(suspension)}
    </Alert>
  );
}
