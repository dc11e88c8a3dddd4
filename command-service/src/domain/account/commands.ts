import { ErrorCode, type ErasedContentChoice } from '@forum/contracts';
import { AccountClosed, Forbidden, NotFound, RuleBroken } from '../errors.ts';
import type { EventStore, StreamAppend } from '@forum/eventstore';
import { acceptedAs, appendTo, registered, type Accepted, type Actors, type Identity } from '../actor.ts';
import type { CommandMeta } from '../command.ts';
import type { UserDirectory } from '../../lookup/users.ts';
import { decide as decideComment } from '../comment/decide.ts';
import { commentStream, evolve as evolveComment, initialCommentState } from '../comment/comment.ts';
import { execute, load, type Executed, type Idempotency } from '../handle.ts';
import { decide as decidePost } from '../post/decide.ts';
import { evolve as evolvePost, initialPostState, postStream } from '../post/post.ts';
import { decide as decideUser } from '../user/decide.ts';
import { evolve as evolveUser, initialUserState, isDisabled, userStream } from '../user/user.ts';

export class CannotEraseSelfError extends RuleBroken {
  constructor() {
    super(ErrorCode.CANNOT_ERASE_SELF, 'You cannot erase your own account here. Use your dashboard to delete your account.');
  }
}

/** The member's choice of what becomes of their content, as AccountErased records it. */
const erasedContentOf = (choice: ErasedContentChoice) => (choice === 'keep' ? ('kept' as const) : ('erased' as const));

/**
 * An account's end and its access (docs/security/erasure.md). The
 * erasure is decided on the member's own stream; the event store destroys their keys in the
 * same transaction as it appends `AccountErased`. When the member's content goes too, their
 * posts are deleted and their comments removed by events of their own in that same append, so
 * every read model takes them away as it does any deletion. Erasing again changes nothing and
 * answers 200.
 */
export function createAccountCommands(store: EventStore, actors: Actors, directory?: Pick<UserDirectory, 'contentOf'>) {
  const loadUser = (userId: string) => load(store, userStream(userId), evolveUser, initialUserState);

  /** The deletions of an erased member's posts and comments (those still there), when their content goes. */
  async function contentGoing(userId: string, choice: ErasedContentChoice, actorId: string, meta: CommandMeta): Promise<StreamAppend[]> {
    if (choice !== 'erase' || !directory) return [];
    const { posts, comments } = await directory.contentOf(userId);
    const [loadedPosts, loadedComments] = await Promise.all([
      Promise.all(posts.map(async (postId) => ({ postId, post: await load(store, postStream(postId), evolvePost, initialPostState) }))),
      Promise.all(comments.map(async (commentId) => ({ commentId, comment: await load(store, commentStream(commentId), evolveComment, initialCommentState) }))),
    ]);
    return [
      ...loadedPosts.flatMap(({ postId, post }) =>
        appendTo(postStream(postId), post, decidePost({ type: 'ErasePost', data: { postId, authorId: userId, actorId } }, post.state, meta), meta),
      ),
      ...loadedComments.flatMap(({ commentId, comment }) =>
        appendTo(commentStream(commentId), comment, decideComment({ type: 'EraseComment', data: { commentId, authorId: userId, actorId } }, comment.state, meta), meta),
      ),
    ];
  }

  /** `userId`'s erasure by `actorId` (`user`: their stream as loaded): AccountErased and, when their content goes, its deletions. */
  async function erasure(userId: string, user: Awaited<ReturnType<typeof loadUser>>, choice: ErasedContentChoice, actorId: string, meta: CommandMeta): Promise<StreamAppend[]> {
    const events = decideUser({ type: 'EraseAccount', data: { userId, content: erasedContentOf(choice) } }, user.state, meta);
    const going = events.length > 0 ? await contentGoing(userId, choice, actorId, meta) : [];
    return [...going, ...appendTo(userStream(userId), user, events, meta)];
  }

  return {
    /** DELETE /api/me: the caller erases their own account (a disabled account cannot act). */
    eraseOwnAccount(who: Identity, choice: ErasedContentChoice, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const user = await loadUser(who.userId);
          if (isDisabled(user.state)) throw new AccountClosed('disabled');
          return { appends: await erasure(who.userId, user, choice, who.userId, meta), answer: acceptedAs(who.userId) };
        },
        idempotency,
      );
    },

    /** DELETE /api/admin/users/:userId: an admin erases another user's account (their own goes through their dashboard). */
    eraseUser(who: Identity, userId: string, choice: ErasedContentChoice, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const actor = await actors.load(who, meta);
          if (registered(actor.state).role !== 'admin') throw new Forbidden('You must be an admin to do this');
          if (userId === who.userId) throw new CannotEraseSelfError();
          const user = await loadUser(userId);
          if (user.state.status === 'unknown') throw new NotFound('No such user');
          const appends: StreamAppend[] = [...actors.append(who, actor, [], meta), ...(await erasure(userId, user, choice, who.userId, meta))];
          return { appends, answer: acceptedAs(userId) };
        },
        idempotency,
      );
    },

    /**
     * The identity realm deleted an account (its admin API calls back first; the realm's admin is
     * the actor in `meta`): the forum erases it, keeping its posts and comments by 'Deleted user'.
     */
    eraseDeletedAccount(userId: string, meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const user = await loadUser(userId);
        return { appends: await erasure(userId, user, 'keep', meta.actorId, meta), answer: acceptedAs(userId) };
      });
    },

    /**
     * The identity realm disabled or enabled an account (its admin API calls back before it
     * changes the account; the realm's admin is the actor in `meta`). Recorded also for an account
     * the forum has not seen yet, so that a token it was given earlier is refused too.
     */
    setAccountAccess(userId: string, enabled: boolean, meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const user = await loadUser(userId);
        const events = decideUser({ type: 'SetAccountAccess', data: { userId, enabled } }, user.state, meta);
        return { appends: appendTo(userStream(userId), user, events, meta), answer: acceptedAs(userId) };
      });
    },
  };
}
