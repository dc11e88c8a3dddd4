import type { Notifications, MarkNotificationsReadRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/me/notifications (the signed-in user's warnings, newest first) and POST /api/me/notifications/read. */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotifications: build.query<Notifications, void>({
      query: () => 'me/notifications',
      responseSchema: contract('Notifications'),
      providesTags: ['Notification'],
    }),
    markNotificationsRead: build.mutation<unknown, MarkNotificationsReadRequest>({
      query: (body) => ({ url: 'me/notifications/read', method: 'POST', body }),
      invalidatesTags: ['Notification'],
    }),
  }),
});

export const { useGetNotificationsQuery, useMarkNotificationsReadMutation } = notificationsApi;
