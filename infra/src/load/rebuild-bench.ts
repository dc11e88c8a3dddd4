/**
 * `npm run bench -- rebuild`: a synthetic log of REBUILD_EVENTS events (default
 * 1,000,000) with the forum's real event types in a realistic mix, loaded into
 * a fresh forum's event store; the forum builds its read models from it; then
 * every projection is rebuilt blue-green, as `forumctl rebuild --all` does,
 * while READ_CONNECTIONS clients keep reading the forum's pages (READ_RATE
 * requests/s in all, 200 by default; 0 for as fast as they can). Prints the
 * rebuild's events/s (and each projection's, to its switch) and how many reads
 * failed during it. REBUILD_STATEMENTS=1 also prints the rebuild's costliest
 * SQL statements (pg_stat_statements, loaded into the forum's PostgreSQL).
 */
import { appendFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPostgresEventStore } from '@forum/eventstore';
import { createKnex, createLogger } from '@forum/platform';
import { allProjections, projectionStatus } from '@forum/projections';
import { rebuildProjections } from '@forum/projections/rebuild';
import { verifyProjection, verifyReport } from '@forum/projections/verify';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { startBenchServer } from './server.ts';
import { ms } from './stats.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

const EVENTS = Number(process.env.REBUILD_EVENTS ?? 1_000_000);
const READ_CONNECTIONS = Number(process.env.READ_CONNECTIONS ?? 4);
/** A forum's steady read traffic during the rebuild (requests/s over all connections); 0 reads as fast as it can. */
const READ_RATE = Number(process.env.READ_RATE ?? 200);
/** Print the statements the rebuild spent PostgreSQL's time on (pg_stat_statements). */
const STATEMENTS = process.env.REBUILD_STATEMENTS === '1';
const say = (line: string) => process.stderr.write(`${line}\n`);

// 1. The log, loaded into the data folder before the forum first starts on it
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-rebuild-bench-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum' });
say(`loading a synthetic log of ${EVENTS.toLocaleString('en')} events…`);
const loaded = await loadSyntheticLog(postgres.url, { events: EVENTS, seed: 42, onProgress: () => {} });
await postgres.stop();
// pg_stat_statements must be loaded when PostgreSQL starts: the forum starts it on this data folder
if (STATEMENTS) await appendFile(path.join(dataDir, 'pg', 'postgresql.auto.conf'), "\nshared_preload_libraries = 'pg_stat_statements'\n");
say(`loaded ${loaded.events.toLocaleString('en')} events in ${(loaded.ms / 1000).toFixed(1)} s`);

// 2. The forum on it (no demo data: the log is the data); it builds its read models first
const server = await startBenchServer({ dataDir, env: { DEMO_DATA: 'false' } });
const db = createKnex(server.databaseUrl, { max: 12 });
const store = await createPostgresEventStore({ connectionString: server.databaseUrl, poolSize: 10 });
try {
  const firstStart = performance.now();
  const caughtUp = async () => {
    for (;;) {
      const status = await projectionStatus(db);
      if (status.length === allProjections.length && status.every((s) => s.role === 'live' && s.lag === 0)) return;
      const halted = status.find((s) => s.error);
      if (halted) throw new Error(`${halted.name} halted: ${halted.error}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  await caughtUp();
  const firstSeconds = (performance.now() - firstStart) / 1000;
  say(`the forum built its read models in ${firstSeconds.toFixed(1)} s`);
  // A forum that has run a while has had its new rows vacuumed and analysed; right after a million
  // events were loaded and projected, autovacuum would do it during the rebuild instead
  const vacuumStart = performance.now();
  await db.raw('VACUUM (ANALYZE)');
  say(`vacuumed and analysed in ${((performance.now() - vacuumStart) / 1000).toFixed(1)} s, as autovacuum would have by then`);
  // It has also had a checkpoint within the last 15 minutes (checkpoint_timeout): its pages are on
  // disk and its used WAL files are recycled. Right after the load, the rebuild would instead write
  // out the load's and the first build's dirty pages as it evicts them, and zero-fill some 40 new
  // WAL files (16 MB each) where a running forum reuses old ones
  const checkpointStart = performance.now();
  await db.raw('CHECKPOINT');
  say(`checkpointed in ${((performance.now() - checkpointStart) / 1000).toFixed(1)} s, as the checkpointer would have by then`);

  if (STATEMENTS) {
    await db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.raw('SELECT pg_stat_statements_reset()');
  }
  // 3. Readers on the forum's pages for the whole rebuild
  const { rows: posts } = await db.raw<{ rows: { id: string }[] }>('SELECT id FROM read.posts ORDER BY created_at DESC LIMIT 20');
  const paths = [
    '/api/posts?page=1',
    '/api/posts?page=20&sort=popularity',
    '/api/tags',
    '/api/users/top-voted',
    '/api/announcements',
    ...posts.flatMap((p) => [`/api/posts/${p.id}`, `/api/comments/${p.id}`]),
  ];
  let next = 0;
  let finished: (result: autocannon.Result) => void = () => {};
  const readResult = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const readers = autocannon(
    {
      url: server.base,
      connections: READ_CONNECTIONS,
      ...(READ_RATE > 0 ? { overallRate: READ_RATE } : {}),
      duration: 3600,
      requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
    },
    (error: Error | null, result) => (error ? say(`readers: ${error.message}`) : finished(result)),
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));

  // 4. Rebuild every projection (as `forumctl rebuild --all`; the forum's runner may take some builds)
  say(`rebuilding ${allProjections.length} projections while ${READ_CONNECTIONS} clients read${READ_RATE > 0 ? ` (${READ_RATE}/s)` : ''}…`);
  let lastLine = 0;
  const rebuildStart = performance.now();
  /** Seconds from the start of the rebuild until each projection's new build switched in (seen twice a second). */
  const switchedAfter = new Map<string, number>();
  const outcome = await rebuildProjections({
    db,
    connectionString: server.databaseUrl,
    store,
    projections: allProjections,
    requestedBy: 'operator:bench',
    logger: createLogger('rebuild-bench', process.env.LOG_LEVEL || 'silent'),
    onProgress(progress) {
      for (const p of progress) {
        if (p.state === 'live' && !switchedAfter.has(p.build.name)) switchedAfter.set(p.build.name, (performance.now() - rebuildStart) / 1000);
      }
      if (performance.now() - lastLine < 5000) return;
      lastLine = performance.now();
      const slowest = progress.reduce((a, b) => (a.position <= b.position ? a : b));
      say(
        `  ${progress.filter((p) => p.state === 'live').length}/${progress.length} switched; slowest ${slowest.build.name} at ${Math.floor((slowest.position * 100) / Math.max(1, slowest.head))}%`,
      );
    },
  });
  readers.stop();
  const reads = await readResult;
  if (outcome.failed.length > 0) throw new Error(`rebuild failed: ${outcome.failed.map((f) => `${f.build.name}: ${f.error ?? f.state}`).join('; ')}`);

  if (STATEMENTS) {
    const { rows } = await db.raw<{ rows: { ms: number; calls: number; rows: number; query: string }[] }>(
      `SELECT round(total_exec_time)::integer AS ms, calls::integer, rows::integer, left(regexp_replace(query, '\\s+', ' ', 'g'), 200) AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 25`,
    );
    say('the costliest statements of the rebuild (and of the forum meanwhile):');
    for (const row of rows)
      say(`  ${row.ms.toLocaleString('en').padStart(8)} ms ${String(row.calls).padStart(7)} calls ${String(row.rows).padStart(8)} rows  ${row.query}`);
  }

  const events = loaded.events;
  const failedReads = reads.non2xx + reads.errors + reads.timeouts;
  const lines = [
    '',
    `forum bench: rebuild (${os.cpus().length} cores, Node ${process.version}, PostgreSQL with fsync on)`,
    `  log                  ${events.toLocaleString('en').padStart(10)} events (${Object.entries(loaded.byType)
      .sort((a, b) => b[1] - a[1])
      .map(([type, n]) => `${type} ${n.toLocaleString('en')}`)
      .join(', ')})`,
    `  first build          ${Math.round(events / firstSeconds)
      .toLocaleString('en')
      .padStart(10)} events/s (${firstSeconds.toFixed(1)} s, all ${allProjections.length} projections, forum idle)`,
    `  rebuild, all         ${Math.round(events / outcome.seconds)
      .toLocaleString('en')
      .padStart(10)} events/s (${outcome.seconds.toFixed(1)} s for ${allProjections.length} projections, blue-green, switched)`,
    `  each, to its switch  ${[...switchedAfter]
      .sort((a, b) => b[1] - a[1])
      .map(([name, seconds]) => `${name} ${Math.round(events / seconds).toLocaleString('en')}/s (${seconds.toFixed(1)} s)`)
      .join(', ')}`,
    `  reads during it      ${reads.requests.total.toLocaleString('en').padStart(10)} (${READ_CONNECTIONS} connections, ${Math.round(reads.requests.average)}/s${READ_RATE > 0 ? ` paced at ${READ_RATE}/s` : ''}, p99 ${ms(reads.latency.p99)}), failed: ${failedReads}`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  if (failedReads > 0) process.exitCode = 1;

  // 5. A fast rebuild that loses rows is a failed one: each new build against a replay of the log (not timed above)
  const verifyStart = performance.now();
  const differing: string[] = [];
  for (const projection of allProjections) {
    const result = await verifyProjection(db, store, projection);
    if (!result.ok) {
      differing.push(projection.name);
      say(verifyReport(result).trimEnd());
    }
  }
  const verifySeconds = ((performance.now() - verifyStart) / 1000).toFixed(1);
  process.stdout.write(
    differing.length === 0
      ? `  verified             every projection equals a replay of the log (${verifySeconds} s)\n`
      : `  verified             DIFFERS from a replay: ${differing.join(', ')} (${verifySeconds} s)\n`,
  );
  if (differing.length > 0) process.exitCode = 1;
} finally {
  await store.close();
  await db.destroy();
  await server.stop();
}
