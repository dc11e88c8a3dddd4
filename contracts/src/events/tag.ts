import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** All tags live in one stream, so a new name is checked against every other one. */
export const TAGS_STREAM = 'tags';

export const TagCreated = defineEvent('TagCreated', 1, z.object({ tagId: z.string().uuid(), name: z.string(), createdAt: isoDate }));
export type TagCreated = { type: 'TagCreated'; data: z.infer<typeof TagCreated.schema> };

/**
 * The tag leaves the tag lists and can no longer be put on a post; posts that
 * carry it keep the text. Its name is free to be created again.
 */
export const TagDeleted = defineEvent('TagDeleted', 1, z.object({ tagId: z.string().uuid(), name: z.string(), deletedAt: isoDate }));
export type TagDeleted = { type: 'TagDeleted'; data: z.infer<typeof TagDeleted.schema> };

export type TagEvent = TagCreated | TagDeleted;
