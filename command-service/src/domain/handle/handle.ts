import { createHash } from 'node:crypto';
import { foldHandle, handleStream, type HandleEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/**
 * One handle, ignoring case (stream `handle-<key>`): who holds it now. An erased member keeps
 * theirs (nothing releases it), so nobody takes over the name others knew them by.
 */
export interface HandleState {
  readonly holder: string | null;
}

export const initialHandleState: HandleState = { holder: null };

export function evolve(state: HandleState, event: HandleEvent): HandleState {
  switch (event.type) {
    case 'HandleClaimed':
      return { holder: event.data.userId };
    case 'HandleReleased':
      return state.holder === event.data.userId ? { holder: null } : state;
    default:
      return unreachable(event);
  }
}

/** The key of a handle's stream: the SHA-256 of its folded form, in hex (a stream's name never holds the handle in clear). */
export const handleKey = (handle: string) => createHash('sha256').update(foldHandle(handle)).digest('hex');

/** A handle's stream (the same for every spelling of it), as the command handler reads it. */
export const handleStreamOf = (handle: string): Stream<HandleState, HandleEvent> => ({
  id: handleStream(handleKey(handle)),
  evolve,
  initialState: initialHandleState,
});
