import { ErrorCode, type Vote, type VoteEvent } from '@forum/contracts';
import { Conflict, NotFound, RuleBroken } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import { postSeenBy, type PostState } from '../post/post.ts';
import type { VoteState } from './vote.ts';

/**
 * Rules enforced here (spec §4 Vote; issue "whole forum on the API", Votes):
 * - one vote per user per post: up, down or none, decided on the (post, voter) stream alone;
 * - the post exists and is not deleted (nor hidden, for a voter who is not staff);
 * - SetVote (PUT) sets the vote; the same vote again appends nothing;
 * - ChangeVote (the spec's PATCH {likeChange, dislikeChange}) is accepted only as a legal transition
 *   from the current vote: like when none (+1, 0), undo a like (-1, 0), like when disliked (+1, -1),
 *   and the mirror images for dislike; anything else is 409 ILLEGAL_VOTE_TRANSITION with the current vote;
 * - no votes on one's own post (issue #28, as Discourse and NodeBB refuse them): a like or a dislike by the
 *   post's author is 422 OWN_POST_VOTE; taking a vote back (to none) is allowed, so an author can withdraw a
 *   vote cast before this rule (docs/moderation.md).
 */
/** `voterIsStaff`: a hidden post is absent (404) to a voter who is not staff. */
export type SetVote = { type: 'SetVote'; data: { postId: string; userId: string; vote: Vote; post: PostState; voterIsStaff: boolean } };
export type ChangeVote = {
  type: 'ChangeVote';
  data: { postId: string; userId: string; likeChange: -1 | 0 | 1; dislikeChange: -1 | 0 | 1; post: PostState; voterIsStaff: boolean };
};
export type VoteCommand = SetVote | ChangeVote;

export class IllegalVoteTransitionError extends Conflict {
  constructor(current: Vote) {
    super(`That vote change is not possible from your current vote (${current})`, ErrorCode.ILLEGAL_VOTE_TRANSITION, { current });
  }
}

export class OwnPostVoteError extends RuleBroken {
  constructor() {
    super(ErrorCode.OWN_POST_VOTE, 'You cannot vote on your own post.');
  }
}

export function decide(command: VoteCommand, state: VoteState, meta: CommandMeta): VoteEvent[] {
  switch (command.type) {
    case 'SetVote':
      return setVote(command, state, meta);
    case 'ChangeVote':
      return changeVote(command, state, meta);
    default:
      return unreachable(command);
  }
}

function requireLivePost(post: PostState, voterIsStaff: boolean) {
  if (postSeenBy(post, voterIsStaff).status !== 'created') throw new NotFound('No such post');
}

function cast(post: PostState, postId: string, userId: string, previous: Vote, vote: Vote, meta: CommandMeta): VoteEvent[] {
  if (post.status === 'created' && post.authorId === userId && vote !== 'none') throw new OwnPostVoteError();
  if (previous === vote) return [];
  return [{ type: 'VoteCast', data: { postId, userId, previous, vote, at: meta.now.toISOString() } }];
}

function setVote(command: SetVote, state: VoteState, meta: CommandMeta): VoteEvent[] {
  requireLivePost(command.data.post, command.data.voterIsStaff);
  return cast(command.data.post, command.data.postId, command.data.userId, state.current, command.data.vote, meta);
}

/**
 * The vote a change leads to, or null when it is not a legal transition: the
 * like and dislike counts of the voter (each 0 or 1, not both 1) plus the
 * change must again be such counts, and something must change.
 */
export function voteAfter(current: Vote, likeChange: number, dislikeChange: number): Vote | null {
  if (likeChange === 0 && dislikeChange === 0) return null;
  const likes = (current === 'up' ? 1 : 0) + likeChange;
  const dislikes = (current === 'down' ? 1 : 0) + dislikeChange;
  if (likes < 0 || likes > 1 || dislikes < 0 || dislikes > 1 || likes + dislikes > 1) return null;
  return likes === 1 ? 'up' : dislikes === 1 ? 'down' : 'none';
}

function changeVote(command: ChangeVote, state: VoteState, meta: CommandMeta): VoteEvent[] {
  requireLivePost(command.data.post, command.data.voterIsStaff);
  const next = voteAfter(state.current, command.data.likeChange, command.data.dislikeChange);
  if (next === null) throw new IllegalVoteTransitionError(state.current);
  return cast(command.data.post, command.data.postId, command.data.userId, state.current, next, meta);
}
