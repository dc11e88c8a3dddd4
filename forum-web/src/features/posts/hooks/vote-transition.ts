import type { SetVoteRequest, Vote } from '@forum/contracts';

/** What the reader clicked on a post. */
export type VoteClick = 'like' | 'dislike';

/**
 * Spec §4 Vote: like when already liked undoes it, like when disliked switches to like,
 * like when neither likes; dislike mirrors this. The answer is the PUT /api/posts/:id/vote body.
 */
export function voteRequest(current: Vote, click: VoteClick): SetVoteRequest {
  const wanted: Vote = click === 'like' ? 'up' : 'down';
  return { vote: current === wanted ? 'none' : wanted };
}

/** How the post's like and dislike counts move when a reader's vote goes from `from` to `to` (each -1, 0 or 1). */
export function voteChange(from: Vote, to: Vote): { likeChange: number; dislikeChange: number } {
  const likes = (vote: Vote) => (vote === 'up' ? 1 : 0);
  const dislikes = (vote: Vote) => (vote === 'down' ? 1 : 0);
  return { likeChange: likes(to) - likes(from), dislikeChange: dislikes(to) - dislikes(from) };
}
