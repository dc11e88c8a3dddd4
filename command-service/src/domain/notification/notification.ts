import { notificationsStream, type NotificationEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { notificationsStream };

/** A user's warnings and whether each was read (stream `notifications-<userId>`). */
export interface NotificationsState {
  readonly warnings: ReadonlyMap<string, { readonly createdAt: string; readonly read: boolean }>;
}

export const initialNotificationsState: NotificationsState = { warnings: new Map() };

export function evolve(state: NotificationsState, event: NotificationEvent): NotificationsState {
  switch (event.type) {
    case 'UserWarned':
      return { warnings: new Map(state.warnings).set(event.data.warningId, { createdAt: event.data.warnedAt, read: false }) };
    case 'WarningsRead': {
      const warnings = new Map(state.warnings);
      for (const id of event.data.warningIds) {
        const warning = warnings.get(id);
        if (warning) warnings.set(id, { ...warning, read: true });
      }
      return { warnings };
    }
    default:
      return unreachable(event);
  }
}
