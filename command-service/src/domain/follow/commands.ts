import type { Identity } from '../actor.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { postStreamOf } from '../post/post.ts';
import { tagsStreamOf } from '../tag/tag.ts';
import { decide } from './decide.ts';
import { followsStreamOf } from './follow.ts';

/** The commands decided on a member's follows stream (their own: no other member's choice contends with it). */
export function createFollowCommands({ handle }: CommandHandler, cost: Costs) {
  const post = (who: Identity, postId: string, type: 'FollowPost' | 'UnfollowPost', meta: CommandMeta, idempotency?: Idempotency) =>
    handle(
      { who, meta, idempotency, cost: cost('follow', who.userId) },
      {
        stream: followsStreamOf(who.userId),
        given: { post: postStreamOf(postId) },
        decide: (follows, { post }) => decide({ type, data: { userId: who.userId, postId, post } }, follows, meta),
        answer: acceptedAs(postId),
      },
    );
  const tag = (who: Identity, name: string, type: 'FollowTag' | 'UnfollowTag', meta: CommandMeta, idempotency?: Idempotency) =>
    handle(
      { who, meta, idempotency, cost: cost('follow', who.userId) },
      {
        stream: followsStreamOf(who.userId),
        given: { tags: tagsStreamOf() },
        decide: (follows, { tags }) => decide({ type, data: { userId: who.userId, name, tags } }, follows, meta),
        answer: acceptedAs(name),
      },
    );

  return {
    /** PUT /api/posts/:id/follow. */
    followPost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) => post(who, postId, 'FollowPost', meta, idempotency),
    /** DELETE /api/posts/:id/follow. */
    unfollowPost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) => post(who, postId, 'UnfollowPost', meta, idempotency),
    /** PUT /api/tags/:name/follow. */
    followTag: (who: Identity, name: string, meta: CommandMeta, idempotency?: Idempotency) => tag(who, name, 'FollowTag', meta, idempotency),
    /** DELETE /api/tags/:name/follow. */
    unfollowTag: (who: Identity, name: string, meta: CommandMeta, idempotency?: Idempotency) => tag(who, name, 'UnfollowTag', meta, idempotency),
  };
}
