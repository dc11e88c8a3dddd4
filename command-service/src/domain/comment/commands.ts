import { actingOf, authorOf, editorOf, roleOf, type Identity } from '../actor.ts';
import { isStaffRole } from '@forum/contracts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { initialPostState, postStreamOf } from '../post/post.ts';
import { userStreamOf } from '../user/user.ts';
import { commentStreamOf } from './comment.ts';
import { decide } from './decide.ts';

/** The commands decided on a comment's stream. */
export function createCommentCommands({ handle, handleMany }: CommandHandler, cost: Costs) {
  return {
    /** POST /api/comments: the comment's id is the request's own. */
    addComment: (who: Identity, input: { commentId: string; postId: string; text: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency, cost: cost('comment', who.userId), refusedWhileSuspended: true },
        {
          stream: commentStreamOf(input.commentId),
          isNew: true,
          given: { post: postStreamOf(input.postId) },
          decide: (comment, { post, actor }) =>
            decide({ type: 'AddComment', data: { ...input, author: authorOf(actor), post, authorIsStaff: isStaffRole(actor.role) } }, comment, meta),
          answer: acceptedAs(input.commentId),
        },
      ),

    /** PATCH /api/comments/:commentId: by the author or staff (see EditComment); an edit that changes nothing costs nothing. */
    editComment: (who: Identity, input: { commentId: string; text: string; reason?: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency, cost: cost('edit', who.userId), refusedWhileSuspended: true },
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

    /** DELETE /api/admin/comments/:commentId (staff): its author's role is read through the comment. */
    removeComment: (who: Identity, commentId: string, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency },
        {
          read: async (reader) => {
            const comment = await reader.read(commentStreamOf(commentId));
            const author = comment.state.status === 'none' ? null : (await reader.read(userStreamOf(comment.state.authorId))).state;
            return { comment, authorRole: author === null ? ('user' as const) : roleOf(author) };
          },
          decide: ({ comment, authorRole }, actor) => [
            { to: comment, events: decide({ type: 'RemoveComment', data: { commentId, actor: actingOf(actor), authorRole } }, comment.state, meta) },
          ],
          answer: acceptedAs(commentId),
        },
      ),
  };
}
