import { z } from 'zod';

/** What every accepted command answers: the new id (when one was made) and the event's position token. */
export const CommandAccepted = z.object({
  id: z.string().optional(),
  position: z.string(),
});
export type CommandAccepted = z.infer<typeof CommandAccepted>;
