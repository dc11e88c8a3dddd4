import { postStream, type PostEvent, type PostModerationEvent } from '@forum/contracts';
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
  /** Staff hid it (with this reason): only its author and staff see it. */
  readonly hidden: { readonly reason: string } | null;
  /** Staff locked it: no new comments but staff's. */
  readonly locked: boolean;
}

/** The events of a post's stream: the post's own, and what staff do to it (issue #43). */
export type PostStreamEvent = PostEvent | PostModerationEvent;

export type PostState = { readonly status: 'none' } | LivePost | { readonly status: 'deleted'; readonly authorId: string };

export const initialPostState: PostState = { status: 'none' };

export function evolve(state: PostState, event: PostStreamEvent): PostState {
  switch (event.type) {
    case 'PostCreated': {
      const { authorId, title, description, tags, createdAt } = event.data;
      return { status: 'created', authorId, title, description, tags, revision: firstRevision(authorId, createdAt), hidden: null, locked: false };
    }
    case 'PostEdited': {
      if (state.status !== 'created') return state;
      const { title, description, tags, revision, editorId, editedAt } = event.data;
      return { ...state, title, description, tags, revision: revisionAfter(state.revision, revision, editorId, editedAt) };
    }
    case 'PostDeleted':
      return { status: 'deleted', authorId: event.data.authorId };
    case 'PostHidden':
      return state.status === 'created' ? { ...state, hidden: { reason: event.data.reason } } : state;
    case 'PostUnhidden':
      return state.status === 'created' ? { ...state, hidden: null } : state;
    case 'PostLocked':
      return state.status === 'created' ? { ...state, locked: true } : state;
    case 'PostUnlocked':
      return state.status === 'created' ? { ...state, locked: false } : state;
    case 'ReportsDismissed':
      return state;
    default:
      return unreachable(event);
  }
}

/** The post's stream, as the command handler reads it. */
export const postStreamOf = (postId: string): Stream<PostState, PostStreamEvent> => ({ id: postStream(postId), evolve, initialState: initialPostState });

/**
 * The post as a member who is not staff meets it: a hidden post is as absent (404) to them for
 * comments, votes and reports, its author included; staff see it as it is.
 */
export const postSeenBy = (post: PostState, isStaff: boolean): PostState => (post.status === 'created' && post.hidden && !isStaff ? { status: 'none' } : post);
