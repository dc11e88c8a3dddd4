import { ErrorCode, type ErasedContentChoice } from '@forum/contracts';
import type { UserDirectory } from '../../lookup/users.ts';
import { requireAdmin, type Identity } from '../actor.ts';
import { decide as decideComment } from '../comment/decide.ts';
import { commentStreamOf, type CommentState } from '../comment/comment.ts';
import { acceptedAs, type Change, type CommandHandler, type Reader } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import { AccountClosed, NotFound, RuleBroken } from '../errors.ts';
import type { Idempotency } from '../execute.ts';
import { decide as decidePost } from '../post/decide.ts';
import { postStreamOf, type PostState } from '../post/post.ts';
import type { Read } from '../stream.ts';
import { decide } from './decide.ts';
import { isDisabled, userStreamOf, type UserState } from './user.ts';

export class CannotEraseSelfError extends RuleBroken {
  constructor() {
    super(ErrorCode.CANNOT_ERASE_SELF, 'You cannot erase your own account here. Use your dashboard to delete your account.');
  }
}

/** The member's choice of what becomes of their content, as AccountErased records it. */
const erasedContentOf = (choice: ErasedContentChoice) => (choice === 'keep' ? ('kept' as const) : ('erased' as const));

/** A member's stream as read for their erasure, and their posts and comments that go with it. */
interface Erasing {
  readonly user: Read<UserState>;
  readonly posts: readonly { readonly postId: string; readonly read: Read<PostState> }[];
  readonly comments: readonly { readonly commentId: string; readonly read: Read<CommentState> }[];
}

/**
 * An account's end (docs/security/erasure.md), decided on the member's own stream; the event store
 * destroys their keys in the same transaction as it appends `AccountErased`. When the member's
 * content goes too, their posts are deleted and their comments removed by events of their own in
 * that same append, so every read model takes them away as it does any deletion. Erasing again
 * changes nothing and answers 200.
 */
export function createErasureCommands({ handleMany }: CommandHandler, directory?: Pick<UserDirectory, 'contentOf'>) {
  /**
   * `userId`'s stream and, when their content goes, their posts and comments that are still there
   * (none for an erased member: erasing again appends nothing).
   */
  async function readErasing(reader: Reader, userId: string, user: Read<UserState>, choice: ErasedContentChoice): Promise<Erasing> {
    if (choice !== 'erase' || !directory || user.state.status === 'erased') return { user, posts: [], comments: [] };
    const content = await directory.contentOf(userId);
    const [posts, comments] = await Promise.all([
      Promise.all(content.posts.map(async (postId) => ({ postId, read: await reader.read(postStreamOf(postId)) }))),
      Promise.all(content.comments.map(async (commentId) => ({ commentId, read: await reader.read(commentStreamOf(commentId)) }))),
    ]);
    return { user, posts, comments };
  }

  /** `userId`'s erasure by `actorId`: AccountErased and, when their content goes, its deletions. */
  function erasure(userId: string, { user, posts, comments }: Erasing, choice: ErasedContentChoice, actorId: string, meta: CommandMeta): Change[] {
    const events = decide({ type: 'EraseAccount', data: { userId, content: erasedContentOf(choice) } }, user.state, meta);
    if (events.length === 0) return [];
    return [
      ...posts.map(({ postId, read }) => ({
        to: read,
        events: decidePost({ type: 'ErasePost', data: { postId, authorId: userId, actorId } }, read.state, meta),
      })),
      ...comments.map(({ commentId, read }) => ({
        to: read,
        events: decideComment({ type: 'EraseComment', data: { commentId, authorId: userId, actorId } }, read.state, meta),
      })),
      { to: user, events },
    ];
  }

  return {
    /** DELETE /api/me: the caller erases their own account (a disabled account cannot act; nobody is registered by it). */
    eraseOwnAccount: (who: Identity, choice: ErasedContentChoice, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { meta, idempotency },
        {
          read: async (reader) => {
            const user = await reader.read(userStreamOf(who.userId));
            // before the lookup of their content
            if (isDisabled(user.state)) throw new AccountClosed('disabled');
            return readErasing(reader, who.userId, user, choice);
          },
          decide: (erasing) => erasure(who.userId, erasing, choice, who.userId, meta),
          answer: acceptedAs(who.userId),
        },
      ),

    /** DELETE /api/admin/users/:userId: an admin erases another user's account (their own goes through their dashboard). */
    eraseUser: (who: Identity, userId: string, choice: ErasedContentChoice, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency },
        {
          // who may ask, and whom, before the lookup of the user's content
          read: async (reader) => {
            requireAdmin(await reader.actor());
            if (userId === who.userId) throw new CannotEraseSelfError();
            const user = await reader.read(userStreamOf(userId));
            if (user.state.status === 'unknown') throw new NotFound('No such user');
            return readErasing(reader, userId, user, choice);
          },
          decide: (erasing) => erasure(userId, erasing, choice, who.userId, meta),
          answer: acceptedAs(userId),
        },
      ),

    /**
     * A restore from a backup (forumctl restore) applies again an erasure recorded after the backup
     * was taken, as the member chose it then; the operator is the actor in `meta`. Content that
     * goes is found in the restored log (`directory`), as for any erasure.
     */
    reapplyErasure: (userId: string, content: 'kept' | 'erased', meta: CommandMeta) =>
      handleMany(
        { meta },
        {
          read: async (reader) => readErasing(reader, userId, await reader.read(userStreamOf(userId)), content === 'kept' ? 'keep' : 'erase'),
          decide: (erasing) => erasure(userId, erasing, content === 'kept' ? 'keep' : 'erase', meta.actorId, meta),
          answer: acceptedAs(userId),
        },
      ),

    /**
     * The identity realm deleted an account (its admin API calls back first; the realm's admin is
     * the actor in `meta`): the forum erases it, keeping its posts and comments by 'Deleted user'.
     */
    eraseDeletedAccount: (userId: string, meta: CommandMeta) =>
      handleMany(
        { meta },
        {
          read: async (reader) => readErasing(reader, userId, await reader.read(userStreamOf(userId)), 'keep'),
          decide: (erasing) => erasure(userId, erasing, 'keep', meta.actorId, meta),
          answer: acceptedAs(userId),
        },
      ),
  };
}
