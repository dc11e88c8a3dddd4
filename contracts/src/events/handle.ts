import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/**
 * A member's handle (the name @mentions use) is unique ignoring case. Each handle has a stream of its
 * own, named by a digest of its folded form (handleKey) so that no handle is written in the clear in
 * a stream's name (an erased member's handle must not outlive their keys). Claiming a handle appends
 * `HandleClaimed` to its stream with the expected version of what was read, and `HandleChanged` to
 * the member's user stream, in one transaction; a change releases the old handle in its stream too.
 * An erased member's handle stays taken: nobody can take over the name others knew them by.
 */
export const handleStream = (key: string) => `handle-${key}`;

export const HandleClaimed = defineEvent('HandleClaimed', 1, z.object({ userId: z.string(), handle: z.string(), claimedAt: isoDate }));
export type HandleClaimed = { type: 'HandleClaimed'; data: z.infer<typeof HandleClaimed.schema> };

export const HandleReleased = defineEvent('HandleReleased', 1, z.object({ userId: z.string(), handle: z.string(), releasedAt: isoDate }));
export type HandleReleased = { type: 'HandleReleased'; data: z.infer<typeof HandleReleased.schema> };

/**
 * In the user's stream: their handle is now `handle` (written as they chose it; matched ignoring
 * case). `source`: chosen at registration in the realm, derived from the name (no choice, or a taken
 * one), or changed in the profile.
 */
export const HandleChanged = defineEvent(
  'HandleChanged',
  1,
  z.object({ userId: z.string(), handle: z.string(), source: z.enum(['registration', 'derived', 'profile']), changedAt: isoDate }),
);
export type HandleChanged = { type: 'HandleChanged'; data: z.infer<typeof HandleChanged.schema> };

export type HandleEvent = HandleClaimed | HandleReleased;
