import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD } from '../embedded/seed.ts';
import { freePort, runningEmbeddedUrl } from '../embedded/postgres.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../embedded/main.ts');

export interface BenchServer {
  readonly base: string;
  /** The forum's embedded PostgreSQL. */
  readonly databaseUrl: string;
  token(email: string, password?: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `npm start`'s entry in its own process (so the load generator does not share
 * its event loop), on a fresh data folder with durable PostgreSQL settings.
 */
export async function startBenchServer(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<BenchServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'forum-bench-')));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      OIDC_ISSUER: '',
      PAYMENT_DEMO_DELAY_MS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ctrl-C stops everything')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`forum exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const databaseUrl = await runningEmbeddedUrl(dataDir, 'forum');
  if (!databaseUrl) throw new Error(`no PostgreSQL running in ${dataDir}`);
  return {
    base,
    databaseUrl,
    async token(email, password = DEMO_PASSWORD) {
      const response = await fetch(`${base}/realms/forum/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
