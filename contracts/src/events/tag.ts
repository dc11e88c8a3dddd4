import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** All tags live in one stream, so a new name is checked against every other one. */
export const TAGS_STREAM = 'tags';

export const TagCreated = defineEvent(
  'TagCreated',
  1,
  z.object({ tagId: z.string().uuid(), name: z.string(), createdAt: isoDate }),
);
export type TagCreated = { type: 'TagCreated'; data: z.infer<typeof TagCreated.schema> };

export type TagEvent = TagCreated;
