import LockOutlined from '@mui/icons-material/LockOutlined';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import { Chip, Stack, type SxProps, type Theme } from '@mui/material';

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
