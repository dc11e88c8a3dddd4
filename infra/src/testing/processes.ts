import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@forum/platform/embedded-postgres';

const services = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../services');

/** The services that run on their own in the distributed layout, each an entry in infra/src/services. */
export type ServiceName = 'command-service' | 'query-service' | 'projections';

/** Services started by `startService`; `stopServices` ends them. */
const children: ChildProcess[] = [];

/** One service's own entry point (`infra/src/services/<service>.ts`) as a separate process, answering on a free port once ready. */
export async function startService(service: ServiceName, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(services, `${service}.ts`)], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${service} exited: ${stderr}`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) return base;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${service} not ready: ${stderr}`);
}

/** Stops every service `startService` started (SIGTERM), and waits for them to exit. */
export async function stopServices(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}
