import { defineProjection } from '../runner/projection.ts';

/**
 * How each member chose to be notified, per kind (`read.notification_preferences`): a row only for a
 * kind they chose (the query side answers DEFAULT_DELIVERIES for the others), the latest choice in
 * log order. An erased member's rows go with them.
 */
export const notificationPreferencesProjection = defineProjection({
  name: 'notification-preferences',
  version: 1,
  types: ['NotificationPreferencesChanged', 'AccountErased'],
  exposes: { notification_preferences: 'preferences' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS preferences (
        user_id text NOT NULL,
        kind text NOT NULL,
        delivery text NOT NULL,
        PRIMARY KEY (user_id, kind)
      );
    `);
  },
  async apply(trx, events) {
    // a batch folds into one row per member and kind (the last choice wins); an erasure ends a segment
    const choices = new Map<string, { userId: string; kind: string; delivery: string }>();
    const flush = async () => {
      if (choices.size === 0) return;
      await trx.raw(
        `INSERT INTO preferences (user_id, kind, delivery)
         SELECT "userId", kind, delivery FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, kind text, delivery text)
         ON CONFLICT (user_id, kind) DO UPDATE SET delivery = EXCLUDED.delivery`,
        [JSON.stringify([...choices.values()])],
      );
      choices.clear();
    };
    for (const event of events) {
      if (event.type === 'AccountErased') {
        await flush();
        await trx.raw('DELETE FROM preferences WHERE user_id = ?', [event.data.userId]);
        continue;
      }
      const { userId, changes } = event.data;
      for (const [kind, delivery] of Object.entries(changes)) choices.set(`${userId} ${kind}`, { userId, kind, delivery });
    }
    await flush();
  },
});
