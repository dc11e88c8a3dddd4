import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/**
 * What a member chose to follow or stop following (PUT and DELETE /api/posts/:id/follow and
 * /api/tags/:name/follow), in a stream of their own: a member's follows are decided together (the
 * same choice twice appends nothing) and never contend with their posts or votes. A post's author
 * and its commenters follow it without an event (the notifications projection counts them in);
 * their explicit `PostUnfollowed` wins over that default for good.
 */
export const followsStream = (userId: string) => `follows-${userId}`;

export const PostFollowed = defineEvent('PostFollowed', 1, z.object({ userId: z.string(), postId: z.string().uuid(), at: isoDate }));
export type PostFollowed = { type: 'PostFollowed'; data: z.infer<typeof PostFollowed.schema> };

export const PostUnfollowed = defineEvent('PostUnfollowed', 1, z.object({ userId: z.string(), postId: z.string().uuid(), at: isoDate }));
export type PostUnfollowed = { type: 'PostUnfollowed'; data: z.infer<typeof PostUnfollowed.schema> };

/** `tag` is the tag's name as the tag list writes it (tags are matched ignoring case). */
export const TagFollowed = defineEvent('TagFollowed', 1, z.object({ userId: z.string(), tag: z.string(), at: isoDate }));
export type TagFollowed = { type: 'TagFollowed'; data: z.infer<typeof TagFollowed.schema> };

export const TagUnfollowed = defineEvent('TagUnfollowed', 1, z.object({ userId: z.string(), tag: z.string(), at: isoDate }));
export type TagUnfollowed = { type: 'TagUnfollowed'; data: z.infer<typeof TagUnfollowed.schema> };

export type FollowEvent = PostFollowed | PostUnfollowed | TagFollowed | TagUnfollowed;
