import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode } from '@forum/contracts';
import { createKnex } from '@forum/platform';
import { allProjections, projectionStatus } from '@forum/projections';
import pg from 'pg';
import { DEMO_PASSWORD } from '../embedded/seed.ts';
import { freePort, runningEmbeddedUrl } from '@forum/platform/embedded-postgres';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../embedded/main.ts');

export interface BenchServer {
  readonly base: string;
  /** The forum's embedded PostgreSQL. */
  readonly databaseUrl: string;
  /** The forum's process (its memory: /proc/<pid>/status). */
  readonly pid: number;
  token(email: string, password?: string): Promise<string>;
  /** Stops the forum; its data folder goes too unless `keepData` (to start it again on the same data). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * `npm start`'s entry in its own process (so the load generator does not share
 * its event loop), on a fresh data folder with durable PostgreSQL settings; or on the running
 * PostgreSQL at `databaseUrl` (which then outlives the forum, as a deployment's does).
 * BENCH_NODE_ARGS adds options to its node command (say `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export async function startBenchServer(options: { dataDir?: string; env?: Record<string, string>; databaseUrl?: string } = {}): Promise<BenchServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'forum-bench-')));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: options.databaseUrl ?? '',
      OIDC_ISSUER: '',
      PAYMENT_DEMO_DELAY_MS: '0',
      // the benches measure the forum's throughput, not its write limits
      WRITE_LIMITS: 'off',
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
  const databaseUrl = options.databaseUrl ?? (await runningEmbeddedUrl(dataDir, 'forum'));
  if (!databaseUrl) throw new Error(`no PostgreSQL running in ${dataDir}`);
  return {
    base,
    databaseUrl,
    pid: child.pid!,
    token: (email, password) => signIn(base, email, password),
    async stop({ keepData = false } = {}) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An access token of the embedded realm at `base` (password grant of client forum-cli). */
export async function signIn(base: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await fetch(`${base}/realms/forum/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * `count` members made the way scripts make users (Keycloak's admin API shape), each a Gold member
 * so the free limit of 5 posts does not stop them; their tokens. One user per writer: commands of
 * different users touch different streams, as a forum's traffic does. `tokens` signs them in
 * again (an access token lasts 5 minutes). Writers an earlier run made are signed in as they are.
 */
export async function benchWriters(
  server: Pick<BenchServer, 'base' | 'token'>,
  count: number,
  prefix = 'bench-writer',
): Promise<{ tokens: () => Promise<string[]> }> {
  const admin = await server.token('admin@forum.local');
  const password = 'Bench#2026';
  const emails: string[] = [];
  for (let n = 0; n < count; n++) {
    const email = `${prefix}-${n}@forum.local`;
    const made = await fetch(`${server.base}/admin/realms/forum/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        username: email,
        email,
        firstName: `Writer ${n}`,
        enabled: true,
        credentials: [{ type: 'password', value: password, temporary: false }],
      }),
    });
    // 409: an earlier run on the same data (SCALE_DATA_DIR) made this writer, with this password
    if (made.status !== 201 && made.status !== 409) throw new Error(`user ${email}: ${made.status} ${await made.text()}`);
    const token = await server.token(email, password);
    const bought = await fetch(`${server.base}/api/users/membership/${email}`, { method: 'PATCH', headers: { Authorization: `Bearer ${token}` } });
    const already = bought.status === 409 && ((await bought.clone().json()) as { error?: { code?: string } }).error?.code === ErrorCode.ALREADY_MEMBER;
    if (bought.status !== 200 && !already) throw new Error(`membership for ${email}: ${bought.status} ${await bought.text()}`);
    emails.push(email);
  }
  return { tokens: () => Promise.all(emails.map((email) => server.token(email, password))) };
}

/** A process's resident memory now and at its peak, in MB (from /proc; NaN where there is none). */
export async function memoryOf(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** The log a kept data folder holds from an earlier run (SCALE_DATA_DIR, SEARCH_DATA_DIR), or null when it holds none yet. */
export async function loadedBefore(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string | null }>(`SELECT to_regclass('eventstore.events')::text AS table`);
    if (!rows[0]?.table) return null;
    const events = Number((await client.query<{ n: string }>('SELECT count(*)::text AS n FROM eventstore.events')).rows[0]!.n);
    return events > 0 ? events : null;
  } finally {
    await client.end();
  }
}

/** Until the forum answers /readyz and every projection is live with nothing left to apply; throws if one halted. */
export async function waitUntilReady(server: BenchServer) {
  const db = createKnex(server.databaseUrl, { max: 2 });
  try {
    for (;;) {
      const status = await projectionStatus(db);
      const halted = status.find((s) => s.error);
      if (halted) throw new Error(`${halted.name} halted: ${halted.error}`);
      const ready = await fetch(`${server.base}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready && status.length === allProjections.length && status.every((s) => s.role === 'live' && s.lag === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await db.destroy();
  }
}
