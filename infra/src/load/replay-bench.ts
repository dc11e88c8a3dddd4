/**
 * How fast each projection replays the log from scratch, and what of that is
 * reading the log and what applying it.
 *
 *   npx tsx infra/src/load/replay-bench.ts [events] [--batch 500,5000] [--only posts,users] [--no-alone] [--no-together] [--no-reads] [--fast] [--rebuild]
 *                                          [--projections <module exporting `projections`>]   (to compare other versions of them)
 *
 * A throwaway embedded PostgreSQL (durable settings as `npm start` has them,
 * unless --fast), the synthetic log loaded into it, then for each batch size:
 * every projection at once with the real runner (a fresh database has no
 * checkpoints, so each builds from the start), timed until every checkpoint is
 * at the head; then each projection alone. `--no-reads` skips the read-only
 * passes over the log (as the store reads it, as text, filtered by type).
 * `--rebuild` replays as a blue-green rebuild does (staged, where a projection
 * can, then settled and switched in) instead of as a first build.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { START } from '@forum/contracts';
import { createPostgresEventStore, type LogRange, type RecordedEvent, type SqlLog } from '@forum/eventstore';
import {
  allProjections,
  createProjectionRunner,
  indexStatements,
  migrateCheckpoints,
  projectionStatus,
  requestRebuild,
  type Projection,
} from '@forum/projections';
import { createKnex, createLogger, type Knex } from '@forum/platform';
import pg from 'pg';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { loadSyntheticLog } from './synthetic-log.ts';

interface Timing {
  batches: number;
  events: number;
  /** Inside the projection's apply. */
  applyMs: number;
  /** When its read indexes were all there, since the replay began (null: not yet, or it has none). */
  indexedAtMs: number | null;
  /** The runner built them before the first batch (so the replay kept them up to date). */
  indexedFirst?: boolean;
  /** Settling a staged replay. */
  settleMs?: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    batch: { type: 'string', default: '500' },
    only: { type: 'string' },
    'no-alone': { type: 'boolean', default: false },
    'no-together': { type: 'boolean', default: false },
    'no-reads': { type: 'boolean', default: false },
    fast: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    projections: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});
const eventsWanted = Number(positionals[0] ?? 1_000_000);
const batchSizes = values.batch.split(',').map(Number);
const available: readonly Projection[] = values.projections
  ? ((await import(path.resolve(values.projections))) as { projections: readonly Projection[] }).projections
  : allProjections;
const chosen = values.only ? available.filter((p) => values.only!.split(',').includes(p.name)) : available;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-replay-'));
const server = await startEmbeddedPostgres({ dataDir, database: 'forum', fast: values.fast });
const url = server.url;
const db = createKnex(url, { max: 20 });
const logger = createLogger('replay-bench', 'warn');
const rate = (events: number, ms: number) => `${Math.round((events / ms) * 1000).toLocaleString('en-US')} ev/s`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

try {
  console.log(
    `PostgreSQL ${values.fast ? 'fast (fsync off)' : 'durable'}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const loaded = await loadSyntheticLog(url, { events: eventsWanted, seed: Number(values.seed) });
  const total = loaded.events;
  console.log(
    `loaded ${total.toLocaleString('en-US')} events (${loaded.streams.toLocaleString('en-US')} streams) in ${s(loaded.ms)}: ${rate(total, loaded.ms)}`,
  );
  console.log(
    '  ' +
      Object.entries(loaded.byType)
        .sort((a, b) => b[1] - a[1])
        .map(([t, n]) => `${t} ${n}`)
        .join(', '),
  );

  if (!values['no-reads']) {
    for (const size of batchSizes) await readPasses(size, total);
  }

  for (const size of batchSizes) {
    if (!values['no-together']) {
      const run = await replay(chosen, size);
      console.log(`\nall ${chosen.length} projections together, batch ${size}: ${s(run.ms)}, ${rate(total, run.ms)} (log events / wall time)`);
      for (const [name, t] of Object.entries(run.timings)) {
        console.log(`  ${name.padEnd(14)} apply ${s(t.applyMs).padStart(7)}  ${t.batches} batches${indexNote(t)}`);
      }
    }
    if (!values['no-alone']) {
      console.log(`\neach projection alone, batch ${size}: wall = apply + the rest (reading the log, checkpoint, commit)`);
      for (const projection of chosen) {
        const run = await replay([projection], size);
        const t = run.timings[projection.name]!;
        console.log(
          `  ${projection.name.padEnd(14)} ${s(run.ms).padStart(7)} ${rate(total, run.ms).padStart(14)}   apply ${s(t.applyMs).padStart(7)}  rest ${s(run.ms - t.applyMs).padStart(7)}  ${t.batches} batches${indexNote(t)}`,
        );
      }
    }
  }
} finally {
  await db.destroy();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/** Replays `projections` from an empty read side until every checkpoint is at the head. */
async function replay(projections: readonly Projection[], batchSize: number): Promise<{ ms: number; timings: Record<string, Timing> }> {
  await resetReadSide(db);
  const timings: Record<string, Timing> = {};
  const timed = projections.map((projection): Projection => {
    const t: Timing = (timings[projection.name] = { batches: 0, events: 0, applyMs: 0, indexedAtMs: null });
    const { replay } = projection;
    const timedApply = (apply: Projection['apply']) => async (trx: Knex.Transaction, events: readonly RecordedEvent[]) => {
      const started = performance.now();
      await apply(trx, events);
      t.applyMs += performance.now() - started;
      t.batches += 1;
      t.events += events.length;
    };
    return {
      ...projection,
      apply: timedApply((trx, events) => projection.apply(trx, events)),
      ...(replay && {
        replay: {
          async stage(trx: Knex.Transaction, log: Knex.Raw, range: LogRange) {
            const started = performance.now();
            await replay.stage(trx, log, range);
            t.applyMs += performance.now() - started;
            t.batches += 1;
          },
          // the steps run at once: the time of the longest
          settle: replay.settle.map((step) => async (trx: Knex.Transaction, log: SqlLog) => {
            const started = performance.now();
            await step(trx, log);
            t.settleMs = Math.max(t.settleMs ?? 0, performance.now() - started);
          }),
        },
      }),
    };
  });
  const store = await createPostgresEventStore({ connectionString: url, poolSize: projections.length + 2 });
  if (values.rebuild) {
    // an (empty) live build at the head for each, and a rebuild asked for: the runner builds the new ones
    await migrateCheckpoints(db);
    const head = await store.head();
    for (const projection of projections) {
      await db.raw(`INSERT INTO projections.checkpoints (name, version, build, state, tx, pos) VALUES (?, ?, 1, 'live', ?::text::xid8, ?)`, [
        projection.name,
        projection.version,
        head.transactionId.toString(),
        head.globalPosition.toString(),
      ]);
      await requestRebuild(db, projection, 'replay-bench', { notify: false });
    }
  }
  const runner = createProjectionRunner({
    db,
    connectionString: url,
    store,
    projections: timed,
    logger,
    batchSize,
    buildBatchSize: batchSize,
    ...(values.rebuild && { only: 'building' as const }),
  });
  const started = performance.now();
  const busy0 = busyJiffies();
  const server0 = serverJiffies();
  const cpu0 = process.cpuUsage();
  let ms: number;
  // not awaited before polling: the bench measures until the checkpoints reach the head, whenever start() resolves
  const starting = runner.start();
  starting.catch(() => {});
  try {
    for (;;) {
      const status = (await projectionStatus(db).catch(() => [])).filter((row) => projections.some((p) => p.name === row.name)); // [] until the runner made its tables
      const halted = status.find((row) => row.error);
      if (halted) throw new Error(`${halted.name} halted: ${halted.error}`);
      // the read indexes a replay builds at its end are part of it: seen in the build's schema
      for (const projection of projections) {
        const t = timings[projection.name]!;
        const row = status.find((r) => r.name === projection.name && (!values.rebuild || r.build > 1));
        if (!projection.indexes || t.indexedAtMs !== null || !row) continue;
        const names = indexStatements(projection).map((statement) => /INDEX IF NOT EXISTS (\w+)/.exec(statement)![1]!);
        const { rows } = await db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = ? AND indexname = ANY (?)', [
          row.schema,
          names,
        ]);
        if (rows[0]!.n < names.length) continue;
        t.indexedAtMs = performance.now() - started;
        t.indexedFirst = t.batches === 0;
      }
      const indexed = projections.every((p) => !p.indexes || timings[p.name]!.indexedAtMs !== null);
      const done = values.rebuild ? status.every((row) => row.build > 1 && row.role === 'live') : status.every((row) => row.lag === 0);
      if (status.length === projections.length && done && indexed) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    ms = performance.now() - started;
    const c = process.cpuUsage(cpu0);
    console.log(
      `  CPU: machine busy ${((busyJiffies() - busy0) / 100).toFixed(1)} s, PostgreSQL ${((serverJiffies() - server0) / 100).toFixed(1)} s, this node ${((c.user + c.system) / 1e6).toFixed(1)} s`,
    );
    const resolved = await Promise.race([starting.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!resolved) console.log(`  (runner.start() had not resolved 10 s after every checkpoint reached the head)`);
  } finally {
    await runner.stop();
    await store.close();
  }
  return { ms, timings };
}

function indexNote(t: Timing) {
  const settled = t.settleMs === undefined ? '' : `, settled in ${s(t.settleMs)}`;
  if (t.indexedAtMs === null) return settled;
  return settled + (t.indexedFirst ? ', read indexes built before the replay' : `, read indexes there at ${s(t.indexedAtMs)}`);
}

/** Drops every projection schema, the checkpoints and the read views: the next runner starts from nothing. */
async function resetReadSide(knex: Knex) {
  const { rows } = await knex.raw<{ rows: { nspname: string }[] }>(`SELECT nspname FROM pg_namespace WHERE nspname IN ('projections', 'read') OR nspname ~ ?`, [
    `^(${allProjections.map((p) => p.name).join('|')})_v[0-9]+`,
  ]);
  for (const { nspname } of rows) await knex.raw(`DROP SCHEMA "${nspname}" CASCADE`);
}

/** The log read once, without applying it: as the store reads it, as text, and filtered to one projection's types. */
async function readPasses(batchSize: number, total: number) {
  console.log(`\nreading the whole log once, batch ${batchSize}`);
  const store = await createPostgresEventStore({ connectionString: url, poolSize: 2 });
  try {
    let started = performance.now();
    let after = START;
    let count = 0;
    for (;;) {
      const events = await store.readAll(after, batchSize);
      if (events.length === 0) break;
      count += events.length;
      after = events.at(-1)!.position;
    }
    const storeMs = performance.now() - started;
    console.log(`  store.readAll (jsonb parsed by pg)   ${s(storeMs).padStart(7)} ${rate(count, storeMs).padStart(14)}`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const scan = async (columns: string, filter: string, params: unknown[]) => {
        let tx = '0';
        let pos = '0';
        let rows = 0;
        const t0 = performance.now();
        for (;;) {
          const result = await client.query<{ tx: string; pos: string }>(
            `SELECT transaction_id::text AS tx, global_position::text AS pos, ${columns} FROM eventstore.events
             WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) AND transaction_id < pg_snapshot_xmin(pg_current_snapshot()) ${filter}
             ORDER BY transaction_id, global_position LIMIT ${batchSize}`,
            [tx, pos, ...params],
          );
          if (result.rows.length === 0) break;
          rows += result.rows.length;
          tx = result.rows.at(-1)!.tx;
          pos = result.rows.at(-1)!.pos;
        }
        return { rows, ms: performance.now() - t0 };
      };
      const text = await scan('stream_id, stream_version, type, data::text AS data, metadata::text AS metadata, recorded_at', '', []);
      console.log(`  same rows, data and metadata as text  ${s(text.ms).padStart(7)} ${rate(text.rows, text.ms).padStart(14)}`);
      const bare = await scan('stream_id, stream_version, type, recorded_at', '', []);
      console.log(`  same rows without data and metadata   ${s(bare.ms).padStart(7)} ${rate(bare.rows, bare.ms).padStart(14)}`);
      for (const projection of chosen) {
        const { types } = projection;
        started = performance.now();
        const filtered = await scan('stream_id, stream_version, type, data, metadata, recorded_at', 'AND type = ANY($3::text[])', [types]);
        console.log(
          `  only ${projection.name}'s types (${filtered.rows} rows)`.padEnd(40) +
            `${s(filtered.ms).padStart(7)} ${rate(total, filtered.ms).padStart(14)} (log events / time)`,
        );
      }
    } finally {
      await client.end();
    }
  } finally {
    await store.close();
  }
}

/**
 * CPU time the bench's PostgreSQL has used (its postmaster, the processes it runs and those it has
 * reaped), in 1/100 s: unlike the machine's, it does not count other work on a shared machine.
 */
function serverJiffies() {
  const postmaster = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]!;
  let jiffies = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // after the command's name: state, parent, …; its user and system time are the 12th and 13th, its
    // reaped children's the 14th and 15th
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    if (pid === postmaster) jiffies += fields[11]! + fields[12]! + fields[13]! + fields[14]!;
    else if (String(fields[1]) === postmaster) jiffies += fields[11]! + fields[12]!;
  }
  return jiffies;
}

/** CPU time the whole machine has been busy (user, nice, system, irq, softirq), in 1/100 s. */
function busyJiffies() {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return user + nice + system + irq + softirq;
}
