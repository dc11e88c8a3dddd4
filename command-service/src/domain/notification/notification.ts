import { notificationsStream, type NotificationEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { notificationsStream };

/**
 * A user's warnings and whether each was read, and the comments they were warned about (stream
 * `notifications-<userId>`: a warning about a comment goes to its author, so every warning about
 * one comment is decided on this one stream).
 */
export interface NotificationsState {
  readonly warnings: ReadonlyMap<string, { readonly createdAt: string; readonly read: boolean }>;
  readonly warnedComments: ReadonlySet<string>;
}

export const initialNotificationsState: NotificationsState = { warnings: new Map(), warnedComments: new Set() };

export function evolve(state: NotificationsState, event: NotificationEvent): NotificationsState {
  switch (event.type) {
    case 'UserWarned': {
      const { warningId, warnedAt, commentId } = event.data;
      return {
        warnings: new Map(state.warnings).set(warningId, { createdAt: warnedAt, read: false }),
        warnedComments: commentId === undefined ? state.warnedComments : new Set(state.warnedComments).add(commentId),
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
    default:
      return unreachable(event);
  }
}
