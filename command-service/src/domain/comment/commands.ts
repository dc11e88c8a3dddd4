import { authorOf, editorOf, type Identity } from '../actor.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { initialPostState, postStreamOf } from '../post/post.ts';
import { commentStreamOf } from './comment.ts';
import { decide } from './decide.ts';

/** The commands decided on a comment's stream. */
export function createCommentCommands({ handle, handleMany }: CommandHandler, cost: Costs) {
  return {
    /** POST /api/comments: the comment's id is the request's own. */
    addComment: (who: Identity, input: { commentId: string; postId: string; text: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency, cost: cost('comment', who.userId) },
        {
          stream: commentStreamOf(input.commentId),
          isNew: true,
          given: { post: postStreamOf(input.postId) },
          decide: (comment, { post, actor }) => decide({ type: 'AddComment', data: { ...input, author: authorOf(actor), post } }, comment, meta),
          answer: acceptedAs(input.commentId),
        },
      ),

    /** PATCH /api/comments/:commentId: by the author or an admin (see EditComment); an edit that changes nothing costs nothing. */
    editComment: (who: Identity, input: { commentId: string; text: string; reason?: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency, cost: cost('edit', who.userId) },
        {
          read: async (reader) => {
            const comment = await reader.read(commentStreamOf(input.commentId));
            const postId = comment.state.status === 'none' ? null : comment.state.postId;
            return { comment, post: postId === null ? initialPostState : (await reader.read(postStreamOf(postId))).state };
          },
          decide: ({ comment, post }, actor) => [
            { to: comment, events: decide({ type: 'EditComment', data: { ...input, editor: editorOf(actor), post } }, comment.state, meta) },
          ],
          answer: acceptedAs(input.commentId),
        },
      ),

    /** DELETE /api/admin/comments/:commentId (admin). */
    removeComment: (who: Identity, commentId: string, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: commentStreamOf(commentId),
          decide: (comment, { actor }) =>
            decide({ type: 'RemoveComment', data: { commentId, actorId: who.userId, actorIsAdmin: actor.role === 'admin' } }, comment, meta),
          answer: acceptedAs(commentId),
        },
      ),
  };
}
