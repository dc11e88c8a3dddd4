import { DEFAULT_DELIVERIES, DELIVERIES, NOTIFICATION_KINDS, type Delivery, type NotificationKind } from '@forum/contracts';
import type { Knex } from '@forum/platform';

const isKind = (kind: string): kind is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(kind);
const isDelivery = (delivery: string): delivery is Delivery => (DELIVERIES as readonly string[]).includes(delivery);

/** A member's delivery of each kind: what they chose, DEFAULT_DELIVERIES for the kinds they never chose. */
export async function notificationPreferencesOf(db: Knex, userId: string): Promise<Record<NotificationKind, Delivery>> {
  const { rows } = await db.raw<{ rows: { kind: string; delivery: string }[] }>('SELECT kind, delivery FROM read.notification_preferences WHERE user_id = ?', [
    userId,
  ]);
  const preferences: Record<NotificationKind, Delivery> = { ...DEFAULT_DELIVERIES };
  for (const { kind, delivery } of rows) if (isKind(kind) && isDelivery(delivery)) preferences[kind] = delivery;
  return preferences;
}
