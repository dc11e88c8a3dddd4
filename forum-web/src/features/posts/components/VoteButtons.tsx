import type { Vote } from '@forum/contracts';
import ThumbDown from '@mui/icons-material/ThumbDown';
import ThumbDownOutlined from '@mui/icons-material/ThumbDownOutlined';
import ThumbUp from '@mui/icons-material/ThumbUp';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import { Box, Stack } from '@mui/material';
import { BusyButton } from '../../../components/BusyButton';
import { useDialogs } from '../../../components/dialog/DialogProvider';
import { useAuth, useAuthState } from '../../../lib/auth';
import { refusalMessage } from '../../../lib/http-error';
import { useSetVoteMutation } from '../api/set-vote';
import { voteRequest, type VoteClick } from '../hooks/vote-transition';

interface VoteButtonsProps {
  postId: string;
  upVote: number;
  downVote: number;
  /** The reader's own vote, as the post's read says (absent for visitors). */
  myVote?: Vote;
}

/**
 * Like and dislike (spec §4): both wait while a vote is on its way (keeping the focus), the counts change
 * when the server has answered, a failure says so in a dialog. Visitors are asked to sign in.
 */
export function VoteButtons({ postId, upVote, downVote, myVote = 'none' }: VoteButtonsProps) {
  const auth = useAuth();
  const { status } = useAuthState();
  const dialogs = useDialogs();
  const [setVote, { isLoading }] = useSetVoteMutation();

  const click = async (which: VoteClick) => {
    if (status !== 'authenticated') {
      const signIn = await dialogs.confirm({
        title: 'Sign in to vote',
        message: 'You need to be signed in to like or dislike a post.',
        confirmLabel: 'Sign in',
        cancelLabel: 'Not now',
      });
      // Back to this post, without a '#…' fragment: the realm refuses a return address with one.
      if (signIn) await auth.login({ redirectUri: `${window.location.origin}${window.location.pathname}${window.location.search}` });
      return;
    }
    const result = await setVote({ postId, ...voteRequest(myVote, which) });
    if ('error' in result) await dialogs.alert({ title: 'Error', message: refusalMessage(result.error) ?? 'Failed to register your vote' });
  };

  const liked = myVote === 'up';
  const disliked = myVote === 'down';
  return (
    <Stack direction="row" spacing={1} role="group" aria-label="Vote on this post" aria-busy={isLoading}>
      <BusyButton
        variant={liked ? 'contained' : 'outlined'}
        size="small"
        startIcon={liked ? <ThumbUp /> : <ThumbUpOutlined />}
        aria-pressed={liked}
        busy={isLoading}
        onClick={() => void click('like')}
      >
        Like{' '}
        <Box component="span" sx={{ ml: 0.5, fontWeight: 700 }}>
          {upVote}
        </Box>
      </BusyButton>
      <BusyButton
        variant={disliked ? 'contained' : 'outlined'}
        color="secondary"
        size="small"
        startIcon={disliked ? <ThumbDown /> : <ThumbDownOutlined />}
        aria-pressed={disliked}
        busy={isLoading}
        onClick={() => void click('dislike')}
      >
        Dislike{' '}
        <Box component="span" sx={{ ml: 0.5, fontWeight: 700 }}>
          {downVote}
        </Box>
      </BusyButton>
    </Stack>
  );
}
