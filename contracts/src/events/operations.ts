import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** One stream per projection for what operators and admins do to it. */
export const projectionStream = (projection: string) => `projection-${projection}`;

/**
 * An admin (the console's Rebuild) or an operator (`forumctl rebuild`) asked for a blue-green
 * rebuild of a projection: `build` is the build that replays the log, `resumed` true when a
 * rebuild was already under way and the request joined it. The rebuild itself is the projection
 * runner's work; this event is the staff action log's record of who asked, and when.
 */
export const ProjectionRebuildRequested = defineEvent(
  'ProjectionRebuildRequested',
  1,
  z.object({
    projection: z.string(),
    version: z.number().int().positive(),
    build: z.number().int().positive(),
    resumed: z.boolean(),
    requestedAt: isoDate,
  }),
);
export type ProjectionRebuildRequested = { type: 'ProjectionRebuildRequested'; data: z.infer<typeof ProjectionRebuildRequested.schema> };

export type OperationsEvent = ProjectionRebuildRequested;
