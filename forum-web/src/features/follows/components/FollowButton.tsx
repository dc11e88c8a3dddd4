import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import { Button } from '@mui/material';
import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useToast } from '../../../components/toast/ToastProvider';
import { refusalMessage } from '../../../lib/http-error';

interface FollowButtonProps {
  /** What the button reads, not pressed ("Follow", "Follow #devops") and pressed ("Following", "Following #devops"). */
  label: { follow: string; following: string };
  /** Whether the member follows it; undefined while that is not known. */
  following: boolean | undefined;
  /** Sends the choice; resolves to whether the server took it (or the error it gave). */
  change: (follow: boolean) => Promise<{ error?: FetchBaseQueryError | SerializedError }>;
  /** What the toast says once followed, and once no longer. */
  said: { followed: string; unfollowed: string };
}

/**
 * Follow as a toggle button (aria-pressed): pressed while the member follows, and then it reads
 * "Following" (its name is what it reads, so a voice user says what they see); a press sends the
 * other choice and the toast says what it means. It shows the server's state only, so a failure
 * leaves it as it was and says so.
 */
export function FollowButton({ label, following, change, said }: FollowButtonProps) {
  const toast = useToast();
  const toggle = async () => {
    const next = !following;
    const result = await change(next);
    if (result.error !== undefined) toast({ message: refusalMessage(result.error) ?? 'That did not work. Try again in a moment.', severity: 'error' });
    else toast({ message: next ? said.followed : said.unfollowed });
  };
  return (
    <Button
      size="small"
      variant={following ? 'contained' : 'outlined'}
      aria-pressed={following ?? false}
      disabled={following === undefined}
      startIcon={following ? <NotificationsActiveOutlined /> : <NotificationsNoneOutlined />}
      onClick={() => void toggle()}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {following ? label.following : label.follow}
    </Button>
  );
}
