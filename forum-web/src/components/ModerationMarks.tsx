import LockOutlined from '@mui/icons-material/LockOutlined';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import type { HiddenMark as Hidden } from '@forum/contracts';
import { Alert, AlertTitle, Chip, Stack, type SxProps, type Theme } from '@mui/material';
import { asSentence } from '../lib/format';
import { FormattedDate } from './FormattedDate';

/**
 * The marks staff put on a post where it is shown (a card, the post page): "Pinned", "Locked". The
 * icon is for the eye, the label says it.
 */
export function PostMarks({ pinned, locked, sx }: { pinned?: boolean; locked?: boolean; sx?: SxProps<Theme> }) {
  if (!pinned && !locked) return null;
  return (
    <Stack direction="row" spacing={0.75} sx={sx}>
      {pinned && <Chip size="small" color="secondary" variant="outlined" icon={<PushPinOutlined aria-hidden />} label="Pinned" />}
      {locked && <Chip size="small" variant="outlined" icon={<LockOutlined aria-hidden />} label="Locked" />}
    </Stack>
  );
}

/**
 * What a hidden post or comment says to the two who still see it, its author and staff: hidden by a
 * moderator, when, why, and that nobody else sees it.
 */
export function HiddenNotice({ hidden, what, mine, sx }: { hidden: Hidden; what: 'post' | 'comment'; mine: boolean; sx?: SxProps<Theme> }) {
  return (
    <Alert severity="warning" icon={<VisibilityOffOutlined />} sx={sx}>
      <AlertTitle>
        {mine ? `A moderator hid your ${what}` : `Hidden by a moderator`} on{' '}
        <time dateTime={hidden.hiddenAt}>
          <FormattedDate value={hidden.hiddenAt} time />
        </time>
      </AlertTitle>
      Reason: {asSentence(hidden.reason)} {mine ? `Only you and the moderators can see it.` : `Only its author and the moderators can see it.`}
    </Alert>
  );
}
