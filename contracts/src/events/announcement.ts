import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** One stream per announcement: it is published once and never changes. */
export const announcementStream = (announcementId: string) => `announcement-${announcementId}`;

/** An admin's announcement (spec §2 Make Announcement); author facts are the admin's forum record at the time. */
export const AnnouncementPublished = defineEvent(
  'AnnouncementPublished',
  1,
  z.object({
    announcementId: z.string().uuid(),
    title: z.string(),
    description: z.string(),
    authorId: z.string(),
    authorName: z.string(),
    authorPhoto: z.string(),
    publishedAt: isoDate,
  }),
);
export type AnnouncementPublished = { type: 'AnnouncementPublished'; data: z.infer<typeof AnnouncementPublished.schema> };

export type AnnouncementEvent = AnnouncementPublished;
