import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** A user's vote on a post: like (up), dislike (down) or neither. */
export const VOTES = ['up', 'down', 'none'] as const;
export type Vote = (typeof VOTES)[number];

/**
 * One stream per (post, voter): "one vote per user per post" is decided on that
 * stream alone, so voters never contend with each other and a popular post
 * takes any number of votes at once. The post's counts are a projection of the
 * deltas (`previous` → `vote`).
 */
export const voteStream = (postId: string, userId: string) => `vote-${postId}-${userId}`;

export const VoteCast = defineEvent(
  'VoteCast',
  1,
  z.object({ postId: z.string().uuid(), userId: z.string(), previous: z.enum(VOTES), vote: z.enum(VOTES), at: isoDate }),
);
export type VoteCast = { type: 'VoteCast'; data: z.infer<typeof VoteCast.schema> };

export type VoteEvent = VoteCast;
