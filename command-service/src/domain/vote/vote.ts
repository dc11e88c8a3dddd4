import { voteStream, type Vote, type VoteEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { voteStream };

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
