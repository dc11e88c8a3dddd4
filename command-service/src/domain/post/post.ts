import { postStream, type PostEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import { firstRevision, revisionAfter, type Revision } from '../revision.ts';
import type { Stream } from '../stream.ts';

/** A live post: its author, its fields as they read now (an edit that changes nothing is none) and its visible revision. */
export interface LivePost {
  readonly status: 'created';
  readonly authorId: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly revision: Revision;
}

export type PostState = { readonly status: 'none' } | LivePost | { readonly status: 'deleted'; readonly authorId: string };

export const initialPostState: PostState = { status: 'none' };

export function evolve(state: PostState, event: PostEvent): PostState {
  switch (event.type) {
    case 'PostCreated': {
      const { authorId, title, description, tags, createdAt } = event.data;
      return { status: 'created', authorId, title, description, tags, revision: firstRevision(authorId, createdAt) };
    }
    case 'PostEdited': {
      if (state.status !== 'created') return state;
      const { title, description, tags, revision, editorId, editedAt } = event.data;
      return { ...state, title, description, tags, revision: revisionAfter(state.revision, revision, editorId, editedAt) };
    }
    case 'PostDeleted':
      return { status: 'deleted', authorId: event.data.authorId };
    default:
      return unreachable(event);
  }
}

/** The post's stream, as the command handler reads it. */
export const postStreamOf = (postId: string): Stream<PostState, PostEvent> => ({ id: postStream(postId), evolve, initialState: initialPostState });
