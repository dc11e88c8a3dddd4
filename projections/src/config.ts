import { DatabaseUrl, eventStoreSettings, logSettings, metricsSettings, Port, ServiceHost, ReadyMaxLag } from '@forum/platform';
import { z } from 'zod';

/** The projection runner's settings when it runs on its own (the distributed layout). */
export const ProjectionsConfig = z.object({
  PORT: Port.default(3003),
  HOST: ServiceHost,
  DATABASE_URL: DatabaseUrl,
  ...eventStoreSettings,
  ...logSettings,
  ...metricsSettings,
  READY_MAX_LAG: ReadyMaxLag,
});
