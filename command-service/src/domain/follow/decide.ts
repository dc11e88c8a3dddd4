import type { FollowEvent } from '@forum/contracts';
import { unreachable, type CommandMeta } from '../command.ts';
import { NotFound } from '../errors.ts';
import type { PostState } from '../post/post.ts';
import { canonicalTag, type TagsState } from '../tag/tag.ts';
import type { FollowsState } from './follow.ts';

/**
 * Rules enforced here (issue #42, docs/notifications.md):
 * - a member follows or unfollows a live post (an unknown or deleted one is 404), and a tag the
 *   forum has, matched ignoring case (the event names it as the tag list writes it);
 * - the same choice twice appends nothing;
 * - per post the last explicit choice is kept: an unfollow of a post never chosen appends
 *   `PostUnfollowed`, since its author and commenters follow it by default (which this stream does
 *   not know), and that choice wins over the default;
 * - a followed tag that was deleted since can still be unfollowed.
 */
export type FollowPost = { type: 'FollowPost'; data: { userId: string; postId: string; post: PostState } };
export type UnfollowPost = { type: 'UnfollowPost'; data: { userId: string; postId: string; post: PostState } };
export type FollowTag = { type: 'FollowTag'; data: { userId: string; name: string; tags: TagsState } };
export type UnfollowTag = { type: 'UnfollowTag'; data: { userId: string; name: string; tags: TagsState } };
export type FollowCommand = FollowPost | UnfollowPost | FollowTag | UnfollowTag;

export function decide(command: FollowCommand, state: FollowsState, meta: CommandMeta): FollowEvent[] {
  const at = meta.now.toISOString();
  switch (command.type) {
    case 'FollowPost':
    case 'UnfollowPost': {
      const { userId, postId, post } = command.data;
      if (post.status !== 'created') throw new NotFound('No such post');
      const choice = command.type === 'FollowPost' ? 'followed' : 'unfollowed';
      if (state.posts.get(postId) === choice) return [];
      return [{ type: choice === 'followed' ? 'PostFollowed' : 'PostUnfollowed', data: { userId, postId, at } }];
    }
    case 'FollowTag': {
      const { userId, name, tags } = command.data;
      const tag = canonicalTag(tags, name);
      if (tag === null) throw new NotFound('No such tag');
      return state.tags.has(tag.toLowerCase()) ? [] : [{ type: 'TagFollowed', data: { userId, tag, at } }];
    }
    case 'UnfollowTag': {
      const { userId, name, tags } = command.data;
      const followed = state.tags.get(name.trim().toLowerCase());
      if (followed !== undefined) return [{ type: 'TagUnfollowed', data: { userId, tag: canonicalTag(tags, name) ?? followed, at } }];
      if (canonicalTag(tags, name) === null) throw new NotFound('No such tag');
      return [];
    }
    default:
      return unreachable(command);
  }
}
