import { authorOf, editorOf, roleOf, actingOf, type Identity } from '../actor.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { tagsStreamOf } from '../tag/tag.ts';
import { decide as decideUser } from '../user/decide.ts';
import { userStreamOf } from '../user/user.ts';
import { decide } from './decide.ts';
import { postStreamOf } from './post.ts';

/** The commands decided on a post's stream, with its author's (the free post limit counts the author's live posts). */
export function createPostCommands({ handle, handleMany }: CommandHandler, cost: Costs) {
  return {
    /** POST /api/posts: the post's id is the request's own; the author's stream counts it, at the version read, so concurrent creates of one author conflict there. */
    createPost: (
      who: Identity,
      input: { postId: string; title: string; description: string; tags: readonly string[] },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ) =>
      handleMany(
        { who, meta, idempotency, cost: cost('post', who.userId), refusedWhileSuspended: true },
        {
          read: (streams) => Promise.all([streams.read(userStreamOf(who.userId)), streams.readNew(postStreamOf(input.postId)), streams.read(tagsStreamOf())]),
          decide: ([author, post, tags], actor) => [
            { to: author, events: decideUser({ type: 'AuthorPost', data: { postId: input.postId } }, actor, meta) },
            { to: post, events: decide({ type: 'CreatePost', data: { ...input, author: authorOf(actor), knownTags: tags.state } }, post.state, meta) },
          ],
          answer: acceptedAs(input.postId),
        },
      ),

    /** PATCH /api/posts/:id: by the author or staff (see EditPost); an edit that changes nothing costs nothing. */
    editPost: (
      who: Identity,
      input: { postId: string; title?: string; description?: string; tags?: readonly string[]; reason?: string },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ) =>
      handle(
        { who, meta, idempotency, cost: cost('edit', who.userId), refusedWhileSuspended: true },
        {
          stream: postStreamOf(input.postId),
          given: { tags: tagsStreamOf() },
          decide: (post, { tags, actor }) => decide({ type: 'EditPost', data: { ...input, editor: editorOf(actor), knownTags: tags } }, post, meta),
          answer: acceptedAs(input.postId),
        },
      ),

    /** DELETE /api/my-posts/:id: by the author or staff; frees the author's slot in the same append. */
    deletePost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency, refusedWhileSuspended: true },
        {
          read: async (streams) => {
            const post = await streams.read(postStreamOf(postId));
            const authorId = post.state.status === 'none' ? who.userId : post.state.authorId;
            return { post, author: await streams.read(userStreamOf(authorId)) };
          },
          decide: ({ post, author }, actor) => [
            { to: post, events: decide({ type: 'DeletePost', data: { postId, actor: actingOf(actor), authorRole: roleOf(author.state) } }, post.state, meta) },
            { to: author, events: decideUser({ type: 'RemoveAuthoredPost', data: { postId } }, author.state, meta) },
          ],
          answer: acceptedAs(postId),
        },
      ),
  };
}
