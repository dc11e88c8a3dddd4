import { postStream, type PostEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

export type PostState =
  { readonly status: 'none' } | { readonly status: 'created'; readonly authorId: string } | { readonly status: 'deleted'; readonly authorId: string };

export const initialPostState: PostState = { status: 'none' };

export function evolve(state: PostState, event: PostEvent): PostState {
  switch (event.type) {
    case 'PostCreated':
      return { status: 'created', authorId: event.data.authorId };
    case 'PostDeleted':
      return { status: 'deleted', authorId: event.data.authorId };
    default:
      return unreachable(event);
  }
}

/** The post's stream, as the command handler reads it. */
export const postStreamOf = (postId: string): Stream<PostState, PostEvent> => ({ id: postStream(postId), evolve, initialState: initialPostState });
