import { DatabaseUrl, LogLevel, oidcSettings, Port } from '@forum/platform';
import { z } from 'zod';

export const QueryServiceConfig = z.object({
  PORT: Port.default(3002),
  DATABASE_URL: DatabaseUrl,
  ...oidcSettings,
  LOG_LEVEL: LogLevel,
  /** Where the command-service answers, for registering a subject's first authenticated request. */
  COMMAND_SERVICE_URL: z.string().url().default('http://127.0.0.1:3001'),
  MIN_POSITION_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(3000),
  READY_MAX_LAG: z.coerce.number().int().min(0).default(10_000),
});
export type QueryServiceConfig = z.infer<typeof QueryServiceConfig>;
