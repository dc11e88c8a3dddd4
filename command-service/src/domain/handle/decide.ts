import { ErrorCode, foldHandle, type HandleChanged, type HandleEvent } from '@forum/contracts';
import { unreachable, type CommandMeta } from '../command.ts';
import { Conflict } from '../errors.ts';
import type { UserState } from '../user/user.ts';
import type { HandleState } from './handle.ts';

/**
 * Rules enforced here (issue #42, docs/notifications.md#handles):
 * - a handle is unique ignoring case: it is claimed on its own stream (`handle-<key>`), at the version
 *   read, in the append that records it on the member's stream; two members claiming one handle at
 *   once get it once (the other's append conflicts and is decided again);
 * - a member gets one handle at registration, once (GiveHandle; a member who has one keeps it);
 * - a member changes theirs in the profile (ChangeHandle): another member's handle, an erased
 *   member's included, is 409 HANDLE_TAKEN; the old one is released; the same handle again is nothing;
 *   a change of case only is a change, on the same stream.
 * The rules of a handle's text (HANDLE_PATTERN, reserved handles) are checked at the edge (handleText).
 */
export type GiveHandle = {
  type: 'GiveHandle';
  data: { userId: string; handle: string; source: 'registration' | 'derived'; user: UserState; claimed: HandleState };
};
export type ChangeHandle = { type: 'ChangeHandle'; data: { userId: string; handle: string; user: UserState; claimed: HandleState } };
export type HandleCommand = GiveHandle | ChangeHandle;

/** What a handle command appends: on the member's stream, the claimed handle's and the released one's. */
export interface HandleDecision {
  readonly user: HandleChanged[];
  readonly claimed: HandleEvent[];
  readonly released: HandleEvent[];
}

const NOTHING: HandleDecision = { user: [], claimed: [], released: [] };

export class HandleTakenError extends Conflict {
  constructor() {
    super('That handle is taken: choose another', ErrorCode.HANDLE_TAKEN);
  }
}

export function decide(command: HandleCommand, meta: CommandMeta): HandleDecision {
  const at = meta.now.toISOString();
  const { userId, handle, user, claimed } = command.data;
  if (user.status !== 'registered') return NOTHING;
  const takenByAnother = claimed.holder !== null && claimed.holder !== userId;
  const claim: HandleEvent[] = claimed.holder === userId ? [] : [{ type: 'HandleClaimed', data: { userId, handle, claimedAt: at } }];
  switch (command.type) {
    case 'GiveHandle': {
      if (user.handle !== null) return NOTHING;
      if (takenByAnother) throw new HandleTakenError();
      return { user: [{ type: 'HandleChanged', data: { userId, handle, source: command.data.source, changedAt: at } }], claimed: claim, released: [] };
    }
    case 'ChangeHandle': {
      if (user.handle === handle) return NOTHING;
      const changed: HandleChanged = { type: 'HandleChanged', data: { userId, handle, source: 'profile', changedAt: at } };
      if (user.handle !== null && foldHandle(user.handle) === foldHandle(handle)) return { user: [changed], claimed: [], released: [] };
      if (takenByAnother) throw new HandleTakenError();
      const released: HandleEvent[] = user.handle === null ? [] : [{ type: 'HandleReleased', data: { userId, handle: user.handle, releasedAt: at } }];
      return { user: [changed], claimed: claim, released };
    }
    default:
      return unreachable(command);
  }
}
