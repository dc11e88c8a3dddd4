/**
 * `forumctl backup` and `restore` at scale (docs/operations.md#backups-and-restores): a synthetic
 * log of BACKUP_EVENTS events (100,000 unless set) in a PostgreSQL of its own, backed up, then
 * restored into an empty database with its read models rebuilt and verified. Prints the times
 * and sizes. `npx tsx infra/src/load/backup-bench.ts`
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { runForumctl } from '../ops/forumctl.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

const EVENTS = Number(process.env.BACKUP_EVENTS ?? 100_000);
const say = (line: string) => process.stdout.write(`${line}\n`);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-backup-bench-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
try {
  const admin = new pg.Client({ connectionString: postgres.urlFor('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE source');
  await admin.query('CREATE DATABASE target');
  await admin.end();
  const loaded = await loadSyntheticLog(postgres.urlFor('source'), { events: EVENTS, seed: 45 });
  say(`synthetic log: ${loaded.events.toLocaleString('en')} events in ${(loaded.ms / 1000).toFixed(1)} s`);

  const io = { out: () => {}, err: () => {} };
  const backupDir = path.join(dataDir, 'backup');
  let started = performance.now();
  const backedUp = await runForumctl(['backup', backupDir], postgres.urlFor('source'), { ...io, err: (t) => void process.stderr.write(t) });
  const backupSeconds = (performance.now() - started) / 1000;
  if (backedUp !== 0) throw new Error(`backup answered ${backedUp}`);
  let bytes = 0;
  for (const file of await readdir(backupDir)) bytes += (await stat(path.join(backupDir, file))).size;
  say(
    `backup: ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${backupSeconds.toFixed(1)} s (${Math.round(loaded.events / backupSeconds).toLocaleString('en')} events/s)`,
  );

  started = performance.now();
  // restore's own lines, with the seconds since it started: the load, then the rebuild and verify
  const restored = await runForumctl(['restore', backupDir, '--no-erasures'], postgres.urlFor('target'), {
    out: (t) => say(`  ${((performance.now() - started) / 1000).toFixed(1)} s: ${t.trim()}`),
    err: () => {},
  });
  const restoreSeconds = (performance.now() - started) / 1000;
  if (restored !== 0) throw new Error(`restore answered ${restored}`);
  say(`restore, rebuild of every read model and verify: ${restoreSeconds.toFixed(1)} s`);
} finally {
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
