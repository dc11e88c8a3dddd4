import { ErrorCode, PINNED_MAX, PINS_STREAM, type PinEvent } from '@forum/contracts';
import { unreachable, type CommandMeta } from '../command.ts';
import { Conflict, NotFound } from '../errors.ts';
import type { PostState } from '../post/post.ts';
import type { Stream } from '../stream.ts';

/** The pinned posts (stream `pins`), oldest pin first. */
export interface PinsState {
  readonly pinned: readonly string[];
}

export const initialPinsState: PinsState = { pinned: [] };

export function evolvePins(state: PinsState, event: PinEvent): PinsState {
  switch (event.type) {
    case 'PostPinned':
      return state.pinned.includes(event.data.postId) ? state : { pinned: [...state.pinned, event.data.postId] };
    case 'PostUnpinned':
      return { pinned: state.pinned.filter((id) => id !== event.data.postId) };
    default:
      return unreachable(event);
  }
}

export const pinsStreamOf = (): Stream<PinsState, PinEvent> => ({ id: PINS_STREAM, evolve: evolvePins, initialState: initialPinsState });

/**
 * Rules enforced here on the pins stream (issue #43): staff (the wiring checks) pin a live post, at
 * most PINNED_MAX at once, counting the pinned posts that are not deleted (409 PIN_LIMIT_REACHED);
 * pinning a pinned post appends nothing; unpinning a pinned post (deleted ones too) unpins it, one not
 * pinned appends nothing; an unknown post (or a deleted one, to pin) is 404. Two pins at once both
 * append to this one stream: the second conflicts, reads the first, and decides again.
 */
export type PinCommand =
  | { type: 'PinPost'; data: { postId: string; actorId: string; post: PostState; pinnedPosts: ReadonlyMap<string, PostState> } }
  | { type: 'UnpinPost'; data: { postId: string; actorId: string; post: PostState } };

export class PinLimitReachedError extends Conflict {
  constructor() {
    super(`At most ${PINNED_MAX} posts can be pinned. Unpin one first.`, ErrorCode.PIN_LIMIT_REACHED);
  }
}

export function decidePins(command: PinCommand, state: PinsState, meta: CommandMeta): PinEvent[] {
  const { postId, actorId, post } = command.data;
  const pinned = state.pinned.includes(postId);
  const at = meta.now.toISOString();
  switch (command.type) {
    case 'PinPost': {
      if (post.status !== 'created') throw new NotFound('No such post');
      if (pinned) return [];
      const live = state.pinned.filter((id) => command.data.pinnedPosts.get(id)?.status === 'created').length;
      if (live >= PINNED_MAX) throw new PinLimitReachedError();
      return [{ type: 'PostPinned', data: { postId, pinnedBy: actorId, pinnedAt: at } }];
    }
    case 'UnpinPost':
      if (pinned) return [{ type: 'PostUnpinned', data: { postId, unpinnedBy: actorId, unpinnedAt: at } }];
      if (post.status === 'none') throw new NotFound('No such post');
      return [];
    default:
      return unreachable(command);
  }
}
