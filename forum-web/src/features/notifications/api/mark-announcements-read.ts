import type { MarkAnnouncementsReadRequest } from '@forum/contracts';
import { api } from '../../../lib/api';

/** POST /api/me/announcements/read: the signed-in member's announcements are read up to one, on all their devices. */
export const markAnnouncementsReadApi = api.injectEndpoints({
  endpoints: (build) => ({
    markAnnouncementsRead: build.mutation<unknown, MarkAnnouncementsReadRequest>({
      query: (body) => ({ url: 'me/announcements/read', method: 'POST', body }),
      // the member's mark comes back with their notifications
      invalidatesTags: ['Notification'],
    }),
  }),
});

export const { useMarkAnnouncementsReadMutation } = markAnnouncementsReadApi;
