import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

export const postStream = (postId: string) => `post-${postId}`;

export const PostCreated = defineEvent(
  'PostCreated',
  1,
  z.object({
    postId: z.string().uuid(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    authorId: z.string(),
    authorName: z.string(),
    authorEmail: z.string(),
    authorPhoto: z.string(),
    createdAt: isoDate,
  }),
);
export type PostCreated = { type: 'PostCreated'; data: z.infer<typeof PostCreated.schema> };

/** The post leaves every list; its comments with it. By its author or an admin. */
export const PostDeleted = defineEvent(
  'PostDeleted',
  1,
  z.object({ postId: z.string().uuid(), authorId: z.string(), deletedBy: z.string(), deletedAt: isoDate }),
);
export type PostDeleted = { type: 'PostDeleted'; data: z.infer<typeof PostDeleted.schema> };

export type PostEvent = PostCreated | PostDeleted;
