import { DatabaseUrl, logSettings, Port } from '@forum/platform';
import { z } from 'zod';

/** The projection runner's settings when it runs on its own (the distributed layout). */
export const ProjectionsConfig = z.object({
  PORT: Port.default(3003),
  DATABASE_URL: DatabaseUrl,
  ...logSettings,
  READY_MAX_LAG: z.coerce.number().int().min(0).default(10_000),
});
