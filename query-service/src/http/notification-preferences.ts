import { NotificationPreferences } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { notificationPreferencesOf } from '../store/notification-preferences.ts';
import { signedIn } from './access.ts';

/** GET /api/me/notification-preferences: how each kind reaches the caller (docs/notifications.md#preferences). */
export function notificationPreferenceRoutes(db: Knex): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get(
      '/me/notification-preferences',
      { schema: { answers: { 200: { body: NotificationPreferences } } } },
      async (request): Promise<NotificationPreferences> => {
        const user = signedIn(request);
        return { preferences: await notificationPreferencesOf(db, user.id) };
      },
    );
    done();
  };
}
