import type { MarkNotificationsReadRequest, Notifications } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** Which page of the notifications (GET /api/me/notifications?page=&unread=): the bell reads page 1 of all of them. */
export interface NotificationsPageArgs {
  page: number;
  unread: boolean;
}

/** The bell's read: the first page of every notification, which the centre's first page shares. */
export const BELL_PAGE: NotificationsPageArgs = { page: 1, unread: false };

/** GET /api/me/notifications (the signed-in member's notifications of every kind, newest first, a page at a time) and POST /api/me/notifications/read. */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotifications: build.query<Notifications, NotificationsPageArgs>({
      query: ({ page, unread }) => ({ url: 'me/notifications', params: { page, ...(unread ? { unread: 'true' } : {}) } }),
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
