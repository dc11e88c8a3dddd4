import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@forum/platform';

const services = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../services');
/**
 * How a service's process runs its entry: as this supervisor runs, compiled (`npm run build`'s
 * infra/dist, the image) or from the TypeScript sources through tsx (tests, benches).
 */
const compiled = import.meta.url.endsWith('.js');
const entryArgs = (service: ServiceName) =>
  compiled ? ['--conditions=forum-compiled', path.join(services, `${service}.js`)] : ['--import', 'tsx', path.join(services, `${service}.ts`)];

/** The services that run on their own, each an entry in infra/src/services. */
export type ServiceName = 'command-service' | 'query-service' | 'projections';

/** How long a service may take to answer /readyz after its start (a busy 2-core machine included). */
const READY_WITHIN_MS = 120_000;
/** A service that died is started again after this pause. */
const RESTART_AFTER_MS = 1000;
/** What is kept of a child's output when it is captured (for the error that says why it did not start). */
const KEPT_OUTPUT = 16 * 1024;

export interface ServiceProcessOptions {
  readonly service: ServiceName;
  /** Its name in the log and in /readyz, e.g. query-service-2. */
  readonly name: string;
  readonly port: number;
  /** Its whole environment (PORT, HOST and METRICS_PORT are set here). */
  readonly env: NodeJS.ProcessEnv;
  /** Where it serves its metrics (METRICS_PORT); none: no metrics. */
  readonly metricsPort?: number | undefined;
  readonly logger: Logger;
  /** `inherit`: its log goes to this process's stdout and stderr; `capture`: kept, shown only when it fails to start. */
  readonly output: 'inherit' | 'capture';
}

/**
 * One service (infra/src/services/<service>.ts, or its compiled twin) in a process of its own on 127.0.0.1:`port`, started
 * again (same port) whenever it dies until `stop` is called: a supervisor's job.
 */
export class ServiceProcess {
  readonly url: string;
  /** Where its metrics are scraped; null without a metrics port. */
  readonly metricsUrl: string | null;
  private child: ChildProcess | null = null;
  private stopping = false;
  private output = '';
  private restartTimer: NodeJS.Timeout | null = null;
  /** How many times it was started again after dying. */
  restarts = 0;

  constructor(private readonly options: ServiceProcessOptions) {
    this.url = `http://127.0.0.1:${options.port}`;
    this.metricsUrl = options.metricsPort === undefined ? null : `http://127.0.0.1:${options.metricsPort}/metrics`;
  }

  get name(): string {
    return this.options.name;
  }

  /** The process id of the running child (none between a death and its restart). */
  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /** Starts the process and resolves once its /readyz answers 200. */
  async start(): Promise<void> {
    const child = this.spawn();
    const deadline = Date.now() + READY_WITHIN_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${this.name} exited (${child.exitCode ?? child.signalCode}) while starting\n${this.output}`);
      if (await this.ready()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.name} was not ready within ${READY_WITHIN_MS / 1000} s\n${this.output}`);
  }

  /** Whether it answers /readyz with 200 now. */
  ready(): Promise<boolean> {
    return fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (answer) => answer.ok,
      () => false,
    );
  }

  /** Sends `signal` to the running child (a test's SIGKILL); the supervisor starts it again. */
  kill(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** From now on it is not started again when it dies (a Ctrl-C reaches the whole process group at once). */
  stopRestarting(): void {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
  }

  /** Stops it for good: SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopRestarting();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(force);
  }

  private spawn(): ChildProcess {
    const { service, port, env, output, logger, metricsPort } = this.options;
    // the supervisor's METRICS_PORT is its own: a service gets one of its own, or none
    const inherited = { ...env };
    delete inherited.METRICS_PORT;
    const child = spawn(process.execPath, entryArgs(service), {
      env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', ...(metricsPort !== undefined && { METRICS_PORT: String(metricsPort) }) },
      stdio: output === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => void (this.output = (this.output + chunk.toString()).slice(-KEPT_OUTPUT));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const again = () => {
      this.restartTimer = setTimeout(() => {
        this.restarts += 1;
        this.spawn();
      }, RESTART_AFTER_MS);
    };
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      logger.error({ process: this.name, code, signal }, `${this.name} died: starting it again`);
      again();
    });
    // a process that could not be made at all (no exit follows): tried again, and the supervisor lives on
    child.once('error', (error) => {
      if (this.stopping || child.pid !== undefined) return;
      logger.error({ process: this.name, err: error }, `${this.name} could not be started: trying again`);
      again();
    });
    this.child = child;
    return child;
  }
}
