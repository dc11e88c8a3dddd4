import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import ThumbDownOutlined from '@mui/icons-material/ThumbDownOutlined';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import { Box, Stack, type SvgIconProps } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { ComponentType } from 'react';

interface PostStatsProps {
  upVote: number;
  downVote: number;
  commentCount: number;
}

/** Up votes, down votes and comments of a post, each an icon and a number with a spoken label. */
export function PostStats({ upVote, downVote, commentCount }: PostStatsProps) {
  return (
    <Stack direction="row" spacing={2.5} sx={{ color: 'text.secondary' }}>
      <Stat Icon={ThumbUpOutlined} value={upVote} label="up votes" />
      <Stat Icon={ThumbDownOutlined} value={downVote} label="down votes" />
      <Stat Icon={ChatBubbleOutline} value={commentCount} label={commentCount === 1 ? 'comment' : 'comments'} />
    </Stack>
  );
}

function Stat({ Icon, value, label }: { Icon: ComponentType<SvgIconProps>; value: number; label: string }) {
  return (
    <Box component="span" title={`${value} ${label}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, typography: 'body2' }}>
      <Icon fontSize="small" aria-hidden />
      {value}
      <Box component="span" sx={visuallyHidden}>
        {` ${label}`}
      </Box>
    </Box>
  );
}
