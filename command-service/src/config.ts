import { adminEmails, DatabaseUrl, LogLevel, oidcSettings, Port } from '@forum/platform';
import { identityAdminSettings } from './identity-admin/settings.ts';
import { paymentSettings } from './payment/settings.ts';
import { z } from 'zod';

export const CommandServiceConfig = z.object({
  PORT: Port.default(3001),
  DATABASE_URL: DatabaseUrl,
  ...oidcSettings,
  LOG_LEVEL: LogLevel,
  ADMIN_EMAILS: adminEmails,
  ...paymentSettings,
  ...identityAdminSettings,
});
export type CommandServiceConfig = z.infer<typeof CommandServiceConfig>;
