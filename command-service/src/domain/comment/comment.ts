import { commentStream, type CommentEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { commentStream };

export type CommentState =
  | { readonly status: 'none' }
  | { readonly status: 'added' | 'removed'; readonly postId: string; readonly authorId: string };

export const initialCommentState: CommentState = { status: 'none' };

export function evolve(state: CommentState, event: CommentEvent): CommentState {
  switch (event.type) {
    case 'CommentAdded':
      return { status: 'added', postId: event.data.postId, authorId: event.data.authorId };
    case 'CommentRemoved':
      return { status: 'removed', postId: event.data.postId, authorId: event.data.authorId };
    default:
      return unreachable(event);
  }
}
