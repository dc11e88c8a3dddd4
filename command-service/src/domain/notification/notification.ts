import { notificationsStream, type Delivery, type NotificationEvent, type NotificationKind } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/**
 * A user's warnings and whether each was read, the comments they were warned about (stream
 * `notifications-<userId>`: a warning about a comment goes to its author, so every warning about
 * one comment is decided on this one stream), and the publication time of the newest
 * announcement they marked read (null before their first mark), the newest time up to which
 * they read their other notifications (`activityReadUpTo`, null before; the rows themselves are the
 * read model's), the ids of those they marked read by id (`readIds`: a read row never turns unread, so
 * marking one again is nothing), and the deliveries they chose (a kind never chosen is absent: DEFAULT_DELIVERIES).
 */
export interface NotificationsState {
  readonly warnings: ReadonlyMap<string, { readonly createdAt: string; readonly read: boolean }>;
  readonly warnedComments: ReadonlySet<string>;
  /** The posts they were warned about (a warning naming a post alone: `postId` without `commentId`). */
  readonly warnedPosts: ReadonlySet<string>;
  readonly announcementsReadUpTo: string | null;
  readonly activityReadUpTo: string | null;
  readonly readIds: ReadonlySet<string>;
  readonly preferences: Readonly<Partial<Record<NotificationKind, Delivery>>>;
}

export const initialNotificationsState: NotificationsState = {
  warnings: new Map(),
  warnedComments: new Set(),
  warnedPosts: new Set(),
  announcementsReadUpTo: null,
  activityReadUpTo: null,
  readIds: new Set(),
  preferences: {},
};

export function evolve(state: NotificationsState, event: NotificationEvent): NotificationsState {
  switch (event.type) {
    case 'UserWarned': {
      const { warningId, warnedAt, commentId, postId } = event.data;
      return {
        ...state,
        warnings: new Map(state.warnings).set(warningId, { createdAt: warnedAt, read: false }),
        warnedComments: commentId === undefined ? state.warnedComments : new Set(state.warnedComments).add(commentId),
        warnedPosts: commentId !== undefined || postId === undefined ? state.warnedPosts : new Set(state.warnedPosts).add(postId),
      };
    }
    case 'WarningsRead': {
      const warnings = new Map(state.warnings);
      for (const id of event.data.warningIds) {
        const warning = warnings.get(id);
        if (warning) warnings.set(id, { ...warning, read: true });
      }
      return { ...state, warnings };
    }
    case 'AnnouncementsRead': {
      // the decider appends only marks that move forward; the later of two stands whatever the log holds
      const { upTo } = event.data;
      const current = state.announcementsReadUpTo;
      return current !== null && Date.parse(current) >= Date.parse(upTo) ? state : { ...state, announcementsReadUpTo: upTo };
    }
    case 'NotificationsRead': {
      const { ids, upTo } = event.data;
      if (ids !== undefined) return { ...state, readIds: new Set([...state.readIds, ...ids]) };
      const current = state.activityReadUpTo;
      return upTo === undefined || (current !== null && Date.parse(current) >= Date.parse(upTo)) ? state : { ...state, activityReadUpTo: upTo };
    }
    case 'NotificationPreferencesChanged':
      return { ...state, preferences: { ...state.preferences, ...event.data.changes } };
    default:
      return unreachable(event);
  }
}

/** A member's notifications stream, as the command handler reads it. */
export const notificationsStreamOf = (userId: string): Stream<NotificationsState, NotificationEvent> => ({
  id: notificationsStream(userId),
  evolve,
  initialState: initialNotificationsState,
});
