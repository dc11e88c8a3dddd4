import {
  DEFAULT_DELIVERIES,
  ErrorCode,
  NOTIFICATION_KINDS,
  type Delivery,
  type NotificationEvent,
  type NotificationKind,
  type NotificationPreferencesChanged,
} from '@forum/contracts';
import { acceptedAs, positionOf, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import { DomainError } from '../errors.ts';
import type { Identity } from '../actor.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { userStreamOf, type UserState } from '../user/user.ts';
import { notificationsStreamOf, type NotificationsState } from './notification.ts';

/**
 * Rules enforced here (issue #42 item 3, docs/notifications.md#preferences):
 * - a member chooses per kind how notifications reach them; only the kinds whose delivery changes are
 *   appended, and nothing when none changes (a kind never chosen has its DEFAULT_DELIVERIES);
 * - an email's unsubscribe link (no sign-in: the token names the member and kinds) sets those kinds to
 *   'app'; a link for a member the forum does not know or has erased is refused (400 UNSUBSCRIBE_LINK_INVALID).
 */
export type ChangeNotificationPreferences = {
  type: 'ChangeNotificationPreferences';
  data: {
    userId: string;
    changes: Readonly<Partial<Record<NotificationKind, Delivery>>>;
    via: NotificationPreferencesChanged['data']['via'];
    /** The member's own stream: an unsubscribe link is good only for a member the forum knows and has not erased. */
    member: UserState;
  };
};

export class UnsubscribeLinkInvalid extends DomainError {
  readonly kind = 'invalid';
  constructor() {
    super(ErrorCode.UNSUBSCRIBE_LINK_INVALID, 'This unsubscribe link is not valid. Choose what reaches you by email in your notification settings.');
  }
}

/** The delivery of each kind as the member has it (chosen, or the default). */
export const deliveriesOf = (state: NotificationsState): Record<NotificationKind, Delivery> =>
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, state.preferences[kind] ?? DEFAULT_DELIVERIES[kind]])) as Record<NotificationKind, Delivery>;

export function decidePreferences(command: ChangeNotificationPreferences, state: NotificationsState, meta: CommandMeta): NotificationEvent[] {
  const { userId, changes, via, member } = command.data;
  if (via === 'unsubscribe' && member.status !== 'registered') throw new UnsubscribeLinkInvalid();
  const now = deliveriesOf(state);
  const changed = Object.fromEntries(
    NOTIFICATION_KINDS.flatMap((kind) => {
      const delivery = changes[kind];
      return delivery === undefined || delivery === now[kind] ? [] : [[kind, delivery]];
    }),
  );
  if (Object.keys(changed).length === 0) return [];
  return [{ type: 'NotificationPreferencesChanged', data: { userId, changes: changed, via, changedAt: meta.now.toISOString() } }];
}

/** The commands on a member's notification preferences (their notifications stream). */
export function createNotificationPreferenceCommands({ handle }: CommandHandler, cost: Costs) {
  return {
    /** PUT /api/me/notification-preferences: the caller's own choices, a write limit's (`preferences`). */
    changeNotificationPreferences: (who: Identity, changes: ChangeNotificationPreferences['data']['changes'], meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency, cost: cost('preferences', who.userId) },
        {
          stream: notificationsStreamOf(who.userId),
          decide: (notifications, { actor }) =>
            decidePreferences(
              { type: 'ChangeNotificationPreferences', data: { userId: who.userId, changes, via: 'settings', member: actor } },
              notifications,
              meta,
            ),
          answer: acceptedAs(who.userId),
        },
      ),

    /**
     * POST /api/unsubscribe?token=…: no sign-in; the token (checked by the route) names the member and the
     * kinds, which become 'app'. Answers the kinds the link stands for (changed now or before).
     */
    unsubscribe: (grant: { userId: string; kinds: readonly NotificationKind[] }, meta: CommandMeta) =>
      handle(
        { meta },
        {
          stream: notificationsStreamOf(grant.userId),
          given: { member: userStreamOf(grant.userId) },
          decide: (notifications, { member }) =>
            decidePreferences(
              {
                type: 'ChangeNotificationPreferences',
                data: { userId: grant.userId, changes: Object.fromEntries(grant.kinds.map((kind) => [kind, 'app'])), via: 'unsubscribe', member },
              },
              notifications,
              meta,
            ),
          answer: (result) => ({ kinds: [...grant.kinds], ...(result && { position: positionOf(result) }) }),
        },
      ),
  };
}
