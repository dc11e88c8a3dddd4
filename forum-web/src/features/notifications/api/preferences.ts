import type { NotificationPreferences, UpdateNotificationPreferencesRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET and PUT /api/me/notification-preferences: how each kind of notification reaches the member. */
export const preferencesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotificationPreferences: build.query<NotificationPreferences, void>({
      query: () => 'me/notification-preferences',
      responseSchema: contract('NotificationPreferences'),
      providesTags: ['Preferences'],
    }),
    updateNotificationPreferences: build.mutation<unknown, UpdateNotificationPreferencesRequest>({
      query: (body) => ({ url: 'me/notification-preferences', method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Preferences']),
    }),
  }),
});

export const { useGetNotificationPreferencesQuery, useUpdateNotificationPreferencesMutation } = preferencesApi;
