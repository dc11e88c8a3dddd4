import { isIP } from 'node:net';
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  freePort,
  keptSecret,
  postgresProcessUser,
  startEmbeddedPostgres,
  stopLeftoverPostmaster,
  type RunningPostgres,
} from '@forum/platform/embedded-postgres';
import pg from 'pg';
import { takeBaseBackup } from './base-backup.ts';
import { prepareForReplication } from './primary-setup.ts';
import { configureStandby, startStandbyServer } from './standby.ts';

export interface ReplicaOptions {
  /** A superuser's URL on the running primary, on this machine (the base backup copies its data directory). */
  readonly primaryUrl: string;
  /** The replica's folder (its data directory is `pg` inside): made from a base backup on first use, started again as it is later. */
  readonly dataDir: string;
  /** Its name: the replication slot and application_name on the primary (pg_stat_replication). */
  readonly name?: string;
  /** Port to listen on; a free one when absent. */
  readonly port?: number;
  /** The standby's page cache; 128MB (PostgreSQL's default) when absent. */
  readonly sharedBuffers?: string;
  readonly log?: (line: string) => void;
}

export interface RunningReplica {
  /** The URL of the primary's database on the replica (same user, same password: the replica is a copy). */
  readonly url: string;
  readonly port: number;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/**
 * The settings a hot standby must have at least as high as its primary's (PostgreSQL refuses to
 * replay otherwise); they are read from the primary, whose own may come from its command line
 * rather than the postgresql.conf the backup copies.
 */
const AT_LEAST_THE_PRIMARYS = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];

/**
 * A hot standby of a running PostgreSQL on this machine, streaming its WAL: on first use the
 * primary is prepared (replication role, pg_hba.conf, slot), a base backup is taken through the
 * low-level API and configured as a standby; a replica made before is started again as it is and
 * catches up from its slot. Resolves once it takes reads and streams from the primary.
 */
export async function startReplica(options: ReplicaOptions): Promise<RunningReplica> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const name = options.name ?? 'forum_replica';
  const primary = new URL(options.primaryUrl);
  const primaryPort = Number(primary.port || 5432);
  const port = options.port ?? (await freePort());
  const urlFor = (database: string) => Object.assign(new URL(options.primaryUrl), { port: String(port), pathname: `/${database}` }).href;

  const settings = await primarySettings(options.primaryUrl);
  await mkdir(dataDir, { recursive: true });
  // as root, PostgreSQL runs as the 'postgres' user, which must be able to enter the folder
  if (postgresProcessUser()) await chmod(dataDir, 0o755);
  const access = { role: 'forum_replication', password: await keptSecret(dataDir, 'replication-password'), slot: name, from: standbyAddress(primary.hostname) };
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`preparing the primary on port ${primaryPort} and taking a base backup into ${pgDir}`);
    await prepareForReplication(options.primaryUrl, access);
    await takeBaseBackup({ primaryUrl: options.primaryUrl, primaryPgDir: settings.dataDirectory, targetPgDir: pgDir, label: `forum replica ${name}` });
  }
  await configureStandby(pgDir, { host: primary.hostname, port: primaryPort }, access);
  await stopLeftoverPostmaster(pgDir, log);
  const server = await startStandbyServer({
    pgDir,
    port,
    superuserUrl: urlFor('postgres'),
    log,
    settings: {
      listen_addresses: '127.0.0.1',
      shared_buffers: options.sharedBuffers ?? '128MB',
      ...settings.atLeast,
    },
  });
  try {
    await streaming(urlFor('postgres'), 30_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: urlFor(primary.pathname.slice(1) || 'postgres'), port, urlFor, stop: () => server.stop() };
}

async function primarySettings(url: string): Promise<{ dataDirectory: string; atLeast: Record<string, string> }> {
  const client = new pg.Client({ connectionString: url, application_name: 'forum-replica-setup' });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>('SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [
      [...AT_LEAST_THE_PRIMARYS, 'data_directory'],
    ]);
    const of = new Map(rows.map((r) => [r.name, r.setting]));
    return { dataDirectory: of.get('data_directory')!, atLeast: Object.fromEntries(AT_LEAST_THE_PRIMARYS.map((n) => [n, of.get(n)!])) };
  } finally {
    await client.end();
  }
}

/** Until the standby's WAL receiver streams from the primary. */
async function streaming(url: string, withinMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'forum-standby-start' });
  await client.connect();
  try {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const { rows } = await client.query<{ status: string }>('SELECT status FROM pg_stat_wal_receiver');
      if (rows[0]?.status === 'streaming') return;
      if (Date.now() > deadline) throw new Error(`The replica does not stream from its primary after ${withinMs} ms (receiver: ${rows[0]?.status ?? 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
}

export interface PrimaryAndReplica {
  /** The primary: the event log, the projections' writes, everything that writes. */
  readonly primary: RunningPostgres;
  /** Its hot standby: the query services' reads (READ_DATABASE_URL). */
  readonly replica: RunningReplica;
  /** Stops the replica, then the primary. */
  stop(): Promise<void>;
}

/**
 * An embedded PostgreSQL in `dataDir/primary` and its hot standby in `dataDir/replica` (for tests
 * and the replicas bench): `primary.url` and `replica.url` name `database` on each.
 */
export async function startPrimaryAndReplica(options: {
  readonly dataDir: string;
  readonly database: string;
  /** fsync and full-page writes off on the primary (tests); commits stay synchronous (see below). */
  readonly fast?: boolean;
  readonly sharedBuffers?: string;
  readonly log?: (line: string) => void;
}): Promise<PrimaryAndReplica> {
  await mkdir(options.dataDir, { recursive: true });
  // as root, PostgreSQL runs as the 'postgres' user, which must be able to pass through the folder
  if (postgresProcessUser()) await chmod(options.dataDir, 0o755);
  const primary = await startEmbeddedPostgres({
    dataDir: path.join(options.dataDir, 'primary'),
    database: options.database,
    ...(options.fast !== undefined && { fast: options.fast }),
    // a commit's WAL goes to the standby once flushed: without synchronous commit that is up to
    // wal_writer_delay (200 ms) later, every read-your-writes read on the replica would wait for it
    settings: { synchronous_commit: 'on' },
    ...(options.sharedBuffers && { sharedBuffers: options.sharedBuffers }),
    ...(options.log && { log: options.log }),
  });
  try {
    const replica = await startReplica({
      primaryUrl: primary.url,
      dataDir: path.join(options.dataDir, 'replica'),
      ...(options.sharedBuffers && { sharedBuffers: options.sharedBuffers }),
      ...(options.log && { log: options.log }),
    });
    return {
      primary,
      replica,
      async stop() {
        await replica.stop();
        await primary.stop();
      },
    };
  } catch (error) {
    await primary.stop();
    throw error;
  }
}

/**
 * The address pg_hba.conf admits the standby from: it runs on this machine, so it connects from
 * the address it reaches the primary at when that is this machine (an IP, or localhost); a primary
 * named otherwise is asked for by its IP address, since a name says nothing of where we come from.
 */
export function standbyAddress(primaryHost: string): string {
  const host = primaryHost.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return 'samehost';
  if (isIP(host) === 4) return `${host}/32`;
  if (isIP(host) === 6) return `${host}/128`;
  throw new Error(`Name the primary by its IP address in its URL (not "${primaryHost}"): pg_hba.conf admits the standby by the address it connects from`);
}
