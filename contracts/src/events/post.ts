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

/**
 * The post's title, description and tags after an edit (all three, whether changed or not), by its
 * author or staff. `revision` is the visible revision the edit makes or folds into (1 is the post
 * as created): an author's edit within EDIT_GRACE_SECONDS of the previous revision folds into it;
 * staff's edit of someone else's post always makes a new one, with `reason`.
 */
export const PostEdited = defineEvent(
  'PostEdited',
  1,
  z.object({
    postId: z.string().uuid(),
    authorId: z.string(),
    editorId: z.string(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    reason: z.string().optional(),
    revision: z.number().int().positive(),
    editedAt: isoDate,
  }),
);
export type PostEdited = { type: 'PostEdited'; data: z.infer<typeof PostEdited.schema> };

export type PostEvent = PostCreated | PostDeleted | PostEdited;
