import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import { Button } from '@mui/material';
import { Link, useBasename, useRecordContext } from 'react-admin';
import type { UserRecord } from './types';

/** The user's event history (the console's /history/user/:id page). */
export function UserHistoryLink() {
  const user = useRecordContext<UserRecord>();
  const basename = useBasename();
  if (!user) return null;
  return (
    <Button
      component={Link}
      to={`${basename}/history/user/${encodeURIComponent(String(user.id))}`}
      size="small"
      startIcon={<HistoryOutlined />}
      aria-label={`History of ${user.name}`}
    >
      History
    </Button>
  );
}
