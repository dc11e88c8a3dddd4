import { commentStream, type CommentEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/** A comment, and its text (a warning about it quotes it, removed or not). */
export type CommentState =
  { readonly status: 'none' } | { readonly status: 'added' | 'removed'; readonly postId: string; readonly authorId: string; readonly text: string };

export const initialCommentState: CommentState = { status: 'none' };

export function evolve(state: CommentState, event: CommentEvent): CommentState {
  switch (event.type) {
    case 'CommentAdded':
      return { status: 'added', postId: event.data.postId, authorId: event.data.authorId, text: event.data.text };
    case 'CommentRemoved':
      return { status: 'removed', postId: event.data.postId, authorId: event.data.authorId, text: state.status === 'none' ? '' : state.text };
    default:
      return unreachable(event);
  }
}

/** A comment's stream, as the command handler reads it. */
export const commentStreamOf = (commentId: string): Stream<CommentState, CommentEvent> => ({
  id: commentStream(commentId),
  evolve,
  initialState: initialCommentState,
});
