import { identityAdminSettings, paymentSettings, writeLimitSettings } from '@forum/command-service';
import { feedSettings } from '@forum/feed';
import { mailerSettings } from '@forum/mailer';
import { adminEmails, DatabaseUrl, eventStoreSettings, logSettings, metricsSettings, oidcSettings, Port, TrustProxy } from '@forum/platform';
import { readSettings } from '@forum/query-service';
import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A comma-separated list of web origins (`https://app.example.com`, no path), each as a browser sends it in `Origin`. */
const origins = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .refine(
          (value) => URL.canParse(value) && new URL(value).origin === value,
          'must be an origin such as https://app.example.com (scheme, host and port only)',
        ),
    ),
  );

/** Configuration of `npm start`: everything in one process, embedded defaults for what is not set. */
export const EmbeddedConfig = z.object({
  PORT: Port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Where browsers reach the forum; the embedded realm's issuer is `${PUBLIC_URL}/realms/forum`. When https, answers carry HSTS. */
  PUBLIC_URL: z.string().url().optional(),
  /** Pages of these origins may call /api from the browser (CORS); none by default (docs/security/headers.md). */
  CORS_ORIGINS: origins,
  DATA_DIR: z.string().min(1).default('.data'),
  /** The embedded PostgreSQL's page cache (shared_buffers), e.g. 2GB; by default a quarter of this machine's memory, 512MB to 8GB. */
  PG_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB|TB)$/, 'a size such as 512MB or 2GB')
    .optional(),
  /** An external PostgreSQL; when absent, an embedded one runs in DATA_DIR. */
  DATABASE_URL: DatabaseUrl.optional(),
  /** The event log in KurrentDB (docs/kurrentdb.md); the read models, checkpoints and keys stay in PostgreSQL. */
  ...eventStoreSettings,
  /** An external issuer (Keycloak realm URL); when absent, the embedded realm serves /realms/forum. */
  OIDC_ISSUER: oidcSettings.OIDC_ISSUER.optional(),
  OIDC_AUDIENCE: oidcSettings.OIDC_AUDIENCE,
  OIDC_JWKS_URL: oidcSettings.OIDC_JWKS_URL,
  /** Emails that are admins from their first sign-in (comma-separated). */
  ADMIN_EMAILS: adminEmails,
  /** Which proxies in front may say who the client is (X-Forwarded-For), for the per-address limits: unset none, a hop count, or subnets. */
  TRUST_PROXY: TrustProxy,
  /** With OIDC_ISSUER: the Keycloak admin API that removes erased members' accounts (docs/security/erasure.md). */
  ...identityAdminSettings,
  ...paymentSettings,
  ...writeLimitSettings,
  /** 'Continue with Google' in the embedded realm: an upstream OpenID provider (Google unless GOOGLE_ISSUER says otherwise). */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  /** A confidential client of the embedded realm (a resource server), which may introspect its tokens: both or neither (docs/identity.md). */
  INTROSPECTION_CLIENT_ID: z.string().min(1).optional(),
  INTROSPECTION_CLIENT_SECRET: z.string().min(16).optional(),
  /** Mail of the embedded realm (password reset) and the notifications: smtp(s)://user:pass@host:port. Unset: a local mailbox page and the log. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Forum <no-reply@forum.local>'),
  /** The notifications' emails: how long one waits unseen, the batch and digest intervals (docs/configuration.md#notifications-by-email). */
  ...mailerSettings,
  /** Demo accounts, tags and posts on first start (embedded realm only). */
  DEMO_DATA: flag.default(true),
  ...logSettings,
  /** The metrics' own listener (docs/operations.md#metrics): off unless METRICS_PORT is set; on HOST unless METRICS_HOST. */
  ...metricsSettings,
  ...readSettings,
  /** The Kafka feed of the events (docs/kafka.md): KAFKA_BROKERS turns it on. */
  ...feedSettings,
  /** The built web apps the gateway serves (default: each workspace's dist/), e.g. a build of a branch beside the usual one. */
  FORUM_WEB_DIR: z.string().min(1).optional(),
  ADMIN_WEB_DIR: z.string().min(1).optional(),
});
export type EmbeddedConfig = z.infer<typeof EmbeddedConfig>;
