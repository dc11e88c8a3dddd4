import { voteStream, type Vote, type VoteEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/** One voter's vote on one post (stream `vote-<postId>-<userId>`). */
export interface VoteState {
  readonly current: Vote;
}

export const initialVoteState: VoteState = { current: 'none' };

export function evolve(state: VoteState, event: VoteEvent): VoteState {
  switch (event.type) {
    case 'VoteCast':
      return { current: event.data.vote };
    default:
      return unreachable(event.type);
  }
}

/** A voter's vote on a post, as the command handler reads it. */
export const voteStreamOf = (postId: string, userId: string): Stream<VoteState, VoteEvent> => ({
  id: voteStream(postId, userId),
  evolve,
  initialState: initialVoteState,
});
