import { followsStream, type FollowEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/**
 * A member's explicit follows (stream `follows-<userId>`): per post the last choice they made
 * (a post they never chose about is absent: they may follow it by default as its author or a
 * commenter, which this stream does not know), and the tags they follow by folded name.
 */
export interface FollowsState {
  readonly posts: ReadonlyMap<string, 'followed' | 'unfollowed'>;
  /** Lower-cased name → the name as it was followed. */
  readonly tags: ReadonlyMap<string, string>;
}

export const initialFollowsState: FollowsState = { posts: new Map(), tags: new Map() };

export function evolve(state: FollowsState, event: FollowEvent): FollowsState {
  switch (event.type) {
    case 'PostFollowed':
      return { ...state, posts: new Map(state.posts).set(event.data.postId, 'followed') };
    case 'PostUnfollowed':
      return { ...state, posts: new Map(state.posts).set(event.data.postId, 'unfollowed') };
    case 'TagFollowed':
      return { ...state, tags: new Map(state.tags).set(event.data.tag.toLowerCase(), event.data.tag) };
    case 'TagUnfollowed': {
      const tags = new Map(state.tags);
      tags.delete(event.data.tag.toLowerCase());
      return { ...state, tags };
    }
    default:
      return unreachable(event);
  }
}

/** A member's follows, as the command handler reads them. */
export const followsStreamOf = (userId: string): Stream<FollowsState, FollowEvent> => ({
  id: followsStream(userId),
  evolve,
  initialState: initialFollowsState,
});
