import { z } from 'zod';

/**
 * What every accepted command answers: the id it concerns and the position token
 * of its last event (absent when the command changed nothing).
 */
export const CommandAccepted = z.object({
  id: z.string().optional(),
  position: z.string().optional(),
});
export type CommandAccepted = z.infer<typeof CommandAccepted>;
