import ThumbDownOutlined from '@mui/icons-material/ThumbDownOutlined';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import { Stack, Typography } from '@mui/material';
import type { ReactElement } from 'react';

function VoteCount({ icon, count, one }: { icon: ReactElement; count: number; one: string }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
      {icon}
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {`${count} ${one}${count === 1 ? '' : 's'}`}
      </Typography>
    </Stack>
  );
}

/**
 * The votes of the reader's own post: its counts, and why there is nothing to vote with (the
 * server refuses a vote on one's own post, docs/moderation.md).
 */
export function OwnPostVotes({ upVote, downVote }: { upVote: number; downVote: number }) {
  return (
    <Stack direction="row" role="group" aria-label="Votes on your post" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}>
      <VoteCount icon={<ThumbUpOutlined fontSize="small" color="action" aria-hidden />} count={upVote} one="like" />
      <VoteCount icon={<ThumbDownOutlined fontSize="small" color="action" aria-hidden />} count={downVote} one="dislike" />
      <Typography variant="body2" color="text.secondary">
        You cannot vote on your own post.
      </Typography>
    </Stack>
  );
}
