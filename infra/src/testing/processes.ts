import { createLogger } from '@forum/platform';
import { freePort } from '@forum/platform/embedded-postgres';
import { ServiceProcess, type ServiceName } from '../replicated/service-process.ts';

export type { ServiceName };

/** Services started by `startService`; `stopServices` ends them. */
const started: ServiceProcess[] = [];

/** One service's own entry point (`infra/src/services/<service>.ts`) as a separate process, answering on a free port once ready. */
export async function startService(service: ServiceName, env: Record<string, string>): Promise<string> {
  const running = new ServiceProcess({
    service,
    name: service,
    port: await freePort(),
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    logger: createLogger('test-services', 'silent'),
    output: 'capture',
  });
  started.push(running);
  await running.start();
  return running.url;
}

/** Stops every service `startService` started (SIGTERM), and waits for them to exit. */
export async function stopServices(): Promise<void> {
  await Promise.all(started.splice(0).map((service) => service.stop()));
}
