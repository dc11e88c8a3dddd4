import { commentStream, type CommentEvent, type CommentModerationEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import { firstRevision, revisionAfter, type Revision } from '../revision.ts';
import type { Stream } from '../stream.ts';

/** A comment, its text as it reads now (a warning about it quotes it, removed or not) and its visible revision. */
export interface WrittenComment {
  readonly status: 'added' | 'removed';
  readonly postId: string;
  readonly authorId: string;
  readonly text: string;
  readonly revision: Revision;
  /** Staff hid it (with this reason): only its author and staff see it. */
  readonly hidden: { readonly reason: string } | null;
}

/** The events of a comment's stream: the comment's own, and what staff do to it (issue #43). */
export type CommentStreamEvent = CommentEvent | CommentModerationEvent;

export type CommentState = { readonly status: 'none' } | WrittenComment;

export const initialCommentState: CommentState = { status: 'none' };

export function evolve(state: CommentState, event: CommentStreamEvent): CommentState {
  switch (event.type) {
    case 'CommentAdded': {
      const { postId, authorId, text, createdAt } = event.data;
      return { status: 'added', postId, authorId, text, revision: firstRevision(authorId, createdAt), hidden: null };
    }
    case 'CommentEdited': {
      if (state.status === 'none') return state;
      const { text, revision, editorId, editedAt } = event.data;
      return { ...state, text, revision: revisionAfter(state.revision, revision, editorId, editedAt) };
    }
    case 'CommentRemoved': {
      const { postId, authorId, removedAt } = event.data;
      return state.status === 'none'
        ? { status: 'removed', postId, authorId, text: '', revision: firstRevision(authorId, removedAt), hidden: null }
        : { ...state, status: 'removed' };
    }
    case 'CommentHidden':
      return state.status === 'added' ? { ...state, hidden: { reason: event.data.reason } } : state;
    case 'CommentUnhidden':
      return state.status === 'added' ? { ...state, hidden: null } : state;
    case 'ReportsDismissed':
      return state;
    default:
      return unreachable(event);
  }
}

/** A comment's stream, as the command handler reads it. */
export const commentStreamOf = (commentId: string): Stream<CommentState, CommentStreamEvent> => ({
  id: commentStream(commentId),
  evolve,
  initialState: initialCommentState,
});
