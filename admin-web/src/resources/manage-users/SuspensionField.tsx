import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import type { UserRecord } from './types';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The suspension in force: until when ("Until lifted" when it has no end), and why; nothing when none. */
export function SuspensionField() {
  const user = useRecordContext<UserRecord>();
  if (!user?.suspension) return null;
  const { until, reason } = user.suspension;
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {until ? (
          <>
            Suspended until <time dateTime={until}>{dateTime.format(new Date(until))}</time>
          </>
        ) : (
          'Suspended until lifted'
        )}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', maxWidth: 240, overflowWrap: 'anywhere' }}>
        {reason}
      </Typography>
    </>
  );
}
