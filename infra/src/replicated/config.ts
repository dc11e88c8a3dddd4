import { z } from 'zod';
import { EmbeddedConfig } from '../embedded/config.ts';

/** How many processes of one service may run: the machine's cores and the database's connections are the real bound. */
export const MAX_REPLICAS = 8;

/** Configuration of `npm run start:replicated`: `npm start`'s variables, and how many of each service run. */
export const ReplicatedConfig = EmbeddedConfig.extend({
  /** Processes of each service: command-service, query-service and projection runner (one owns the projections, the others stand by). */
  REPLICAS: z.coerce.number().int().min(1).max(MAX_REPLICAS).default(2),
});
export type ReplicatedConfig = z.infer<typeof ReplicatedConfig>;
