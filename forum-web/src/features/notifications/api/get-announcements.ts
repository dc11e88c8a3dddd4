import type { Announcement } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/announcements — public, newest first. */
export const getAnnouncementsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAnnouncements: build.query<Announcement[], void>({
      query: () => 'announcements',
      responseSchema: contract('AnnouncementList'),
      providesTags: ['Announcement'],
    }),
  }),
});

export const { useGetAnnouncementsQuery } = getAnnouncementsApi;
