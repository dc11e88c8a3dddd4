import { DatabaseUrl, DEFAULT_AUDIENCE, IssuerUrl, LogLevel, Port } from '@forum/platform';
import { z } from 'zod';

export const CommandServiceConfig = z.object({
  PORT: Port.default(3001),
  DATABASE_URL: DatabaseUrl,
  OIDC_ISSUER: IssuerUrl,
  OIDC_AUDIENCE: z.string().min(1).default(DEFAULT_AUDIENCE),
  OIDC_JWKS_URL: z.string().url().optional(),
  LOG_LEVEL: LogLevel,
});
export type CommandServiceConfig = z.infer<typeof CommandServiceConfig>;
