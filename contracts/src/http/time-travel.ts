import { z } from 'zod';
import { parsePositionToken } from '../position.ts';
import { HISTORY_KINDS, HistoryParams, HistoryQuery } from './admin.ts';

// ─── an entity's state as it was (forumctl asof, the console's history) ─────

/**
 * One field that differs between two states of a user or a post: `path` names it from the state's
 * top (`title`, `revision.number`); `added` and `removed` carry one value, `changed` both.
 */
export const StateChange = z.discriminatedUnion('change', [
  z.object({ change: z.literal('added'), path: z.string(), after: z.unknown() }),
  z.object({ change: z.literal('changed'), path: z.string(), before: z.unknown(), after: z.unknown() }),
  z.object({ change: z.literal('removed'), path: z.string(), before: z.unknown() }),
]);
export type StateChange = z.infer<typeof StateChange>;

/**
 * A user's or a post's state after one event of its history, as the write side folds its own
 * stream (`post-…`, `user-…`) up to that event (events of other streams leave it as it was),
 * and what the event changed in it. Erased personal data reads "[erased]", as the history shows it.
 */
export const HistoryState = z.object({
  /** The event's position, as in the history (`HistoryEntry.position`). */
  position: z.string(),
  state: z.unknown(),
  changes: z.array(StateChange),
});
export type HistoryState = z.infer<typeof HistoryState>;

/** GET /api/admin/history/:kind/:id/states?after=&limit=: the states after the events of the same page of the history. */
export const HistoryStatesParams = HistoryParams;
export const HistoryStatesQuery = HistoryQuery;
export const HistoryStates = z.object({
  kind: z.enum(HISTORY_KINDS),
  id: z.string(),
  states: z.array(HistoryState),
});
export type HistoryStates = z.infer<typeof HistoryStates>;

/** GET /api/admin/history/:kind/:id/state?at=<position>: the state as of a position of the log (the token the history shows). */
export const StateAtQuery = z.object({
  at: z.string('Give the position as at=<position>').transform((token, ctx) => {
    const position = parsePositionToken(token);
    if (!position) {
      ctx.addIssue({ code: 'custom', message: 'Not a position of the log' });
      return z.NEVER;
    }
    return position;
  }),
});
export type StateAtQuery = z.output<typeof StateAtQuery>;

/**
 * The state as of `at`: after the last event of its own stream at or before it (`position`,
 * null: it did not exist yet, and `state` is the fold's initial state).
 */
export const StateAt = z.object({
  kind: z.enum(HISTORY_KINDS),
  id: z.string(),
  at: z.string(),
  position: z.string().nullable(),
  state: z.unknown(),
});
export type StateAt = z.infer<typeof StateAt>;

// ─── snapshots of the read models (forumctl snapshot) ───────────────────────

export const SNAPSHOT_STATES = ['building', 'ready', 'failed', 'interrupted'] as const;

/** GET /api/admin/snapshots (react-admin's list: `id` is the name): every snapshot of the read models, newest first. */
export const Snapshot = z.object({
  id: z.string(),
  name: z.string(),
  /** The schema operators query (`snapshot_<name>`), one view per read-model view of `read`. */
  schema: z.string(),
  /** The log position it stops at, and that event's time. */
  position: z.string(),
  at: z.string(),
  state: z.enum(SNAPSHOT_STATES),
  /** Read models built of all. */
  built: z.number().int(),
  total: z.number().int(),
  /** The read model being built and how far (0 to 100), while building. */
  current: z.string().nullable(),
  percent: z.number().int(),
  /** Bytes on disk, its tables and indexes. */
  bytes: z.number(),
  /** Accounts erased since it was built: it still holds what the log showed of them then (drop it and take it again). */
  erasedSince: z.number().int(),
  requestedBy: z.string(),
  createdAt: z.string(),
  error: z.string().nullable(),
});
export type Snapshot = z.infer<typeof Snapshot>;
