import { adminEmails, DatabaseUrl, eventStoreSettings, logSettings, metricsSettings, oidcSettings, Port, ServiceHost, TrustProxy } from '@forum/platform';
import { writeLimitSettings } from './limits/settings.ts';
import { identityAdminSettings } from './identity-admin/settings.ts';
import { paymentSettings } from './payment/settings.ts';
import { z } from 'zod';

export const CommandServiceConfig = z.object({
  PORT: Port.default(3001),
  HOST: ServiceHost,
  /** Where browsers reach the forum (e.g. https://forum.example): photo addresses may not point at it. */
  PUBLIC_URL: z.string().url(),
  DATABASE_URL: DatabaseUrl,
  ...eventStoreSettings,
  ...oidcSettings,
  ...logSettings,
  ...metricsSettings,
  ADMIN_EMAILS: adminEmails,
  /** Which proxies in front may say who the client is (X-Forwarded-For): unset none, a hop count, or subnets. */
  TRUST_PROXY: TrustProxy,
  ...paymentSettings,
  ...writeLimitSettings,
  ...identityAdminSettings,
});
export type CommandServiceConfig = z.infer<typeof CommandServiceConfig>;
