import { normalizeEmail } from '@forum/contracts';
import { z } from 'zod';

export class ConfigError extends Error {}

/**
 * Reads configuration once from the environment and validates it. Services call
 * this in their entry point and pass the result down; nothing else reads process.env.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // An empty variable (`DATABASE_URL=`) means "not set", as in most tools
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  return result.data;
}

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
/** LOG_FORMAT: `json` or `pretty` (one readable line each); unset, pretty when stdout is a terminal, else JSON (see logFormatFor). */
export const LogFormat = z.enum(['json', 'pretty']).optional();
export type LogFormat = NonNullable<z.infer<typeof LogFormat>>;
/** What every service's log takes from the environment: LOG_LEVEL and LOG_FORMAT. */
export const logSettings = { LOG_LEVEL: LogLevel, LOG_FORMAT: LogFormat };
export const Port = z.coerce.number().int().min(0).max(65535);
/**
 * Where a process serves its metrics (GET /metrics, Prometheus's text format), on a listener of
 * its own that the gateway never exposes: METRICS_PORT (unset: no metrics at all; 0: a free port),
 * on METRICS_HOST (unset: the process's HOST).
 */
export const metricsSettings = { METRICS_PORT: Port.optional(), METRICS_HOST: z.string().min(1).optional() };
/** HOST of a service on its own: the interface it listens on; `::` takes IPv6 and IPv4 alike (set 0.0.0.0 where the host has no IPv6). */
export const ServiceHost = z.string().min(1).default('::');
export const DatabaseUrl = z
  .string()
  .url()
  .refine((u) => /^postgres(ql)?:/.test(u), 'must be a postgres:// URL');
/** EVENTSTORE_URL: a KurrentDB connection string (kurrentdb://, esdb://, with +discover for a cluster); unset, the log is in DATABASE_URL's PostgreSQL. */
export const EventStoreUrl = z
  .string()
  .refine(
    (u) => /^(kurrentdb|kdb|esdb|eventstore)(\+discover)?:\/\/./i.test(u),
    'must be a KurrentDB connection string such as kurrentdb://host:2113?tls=false',
  );
/** Where the event log is: KurrentDB at EVENTSTORE_URL (docs/kurrentdb.md), else PostgreSQL. */
export const eventStoreSettings = { EVENTSTORE_URL: EventStoreUrl.optional() };
export const IssuerUrl = z.string().url();
/** READY_MAX_LAG: how many events a live projection may be behind the log's head while the service says it is ready. */
export const ReadyMaxLag = z.coerce.number().int().min(0).default(10_000);
export const DEFAULT_AUDIENCE = 'urn:forum:api';

/** How a service finds and checks the issuer of its access tokens. */
export const oidcSettings = {
  OIDC_ISSUER: IssuerUrl,
  OIDC_AUDIENCE: z.string().min(1).default(DEFAULT_AUDIENCE),
  OIDC_JWKS_URL: z.string().url().optional(),
};

/** A comma-separated list of emails, each normalised (normalizeEmail: case, spaces, a trailing dot, NFC). */
export const adminEmails = z
  .string()
  .default('')
  .transform((list) => list.split(',').map(normalizeEmail).filter(Boolean));

/**
 * Whether `email` (normalised, as platform/auth gives it) is listed in ADMIN_EMAILS (`list`, normalised)
 * and the token vouches that its owner has it (email_verified): such a user becomes admin, unless
 * they already are (the caller's check of the role).
 */
export const isVerifiedAdminEmail = (email: string, verified: boolean, list: ReadonlySet<string>): boolean => verified && email !== '' && list.has(email);
