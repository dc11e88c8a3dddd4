import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import type { HiddenMark as Hidden } from '@forum/contracts';
import { Alert, AlertTitle, type SxProps, type Theme } from '@mui/material';
import { asSentence } from '../lib/format';
import { FormattedDate } from './FormattedDate';

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
