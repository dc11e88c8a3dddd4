import { positionToken, type LogPosition } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import { buildSchema, liveBuild } from '../runner/checkpoints.ts';
import { tablesOf, type Projection } from '../runner/projection.ts';
import { replayUpTo } from './replay-to.ts';

export interface TableDiff {
  view: string;
  table: string;
  rows: number;
  /** Rows the live read model has and a fresh replay does not (at most `shown`). */
  onlyLive: unknown[];
  /** Rows a fresh replay has and the live read model does not. */
  onlyReplay: unknown[];
  differing: number;
}

export type VerifyResult =
  | { name: string; ok: true; position: string; tables: TableDiff[] }
  | { name: string; ok: false; position: string | null; tables: TableDiff[]; problem?: string; inconsistent?: string[] };

const SHOWN = 20;

/**
 * Replays the whole log into a scratch schema and compares every table the
 * projection exposes with its live build, row for row. It all happens in one
 * REPEATABLE READ transaction that is rolled back: the live build's
 * checkpoint and tables are read from the same snapshot (they commit
 * together), the replay stops exactly at that checkpoint, and the scratch
 * schema vanishes with the rollback. The live build goes on meanwhile.
 */
export async function verifyProjection(db: Knex, store: EventStore, projection: Projection, options: { batchSize?: number } = {}): Promise<VerifyResult> {
  const trx = await db.transaction({ isolationLevel: 'repeatable read' });
  try {
    const live = await liveBuild(trx, projection.name);
    if (!live) return { name: projection.name, ok: false, position: null, tables: [], problem: 'no live build' };
    if (live.version !== projection.version) {
      return { name: projection.name, ok: false, position: null, tables: [], problem: `live is v${live.version}, this code is v${projection.version}` };
    }
    return await compareInTransaction(trx, store, projection, { schema: buildSchema(live), position: live.position }, options);
  } finally {
    await trx.rollback().catch(() => {});
  }
}

/**
 * Compares the projection's tables in `built.schema` (a build, a snapshot) with a replay of the log
 * up to `built.position` in a scratch schema, as `verifyProjection` compares the live build; the
 * scratch schema is rolled back. `staged: false` replays event by event only (see `replayUpTo`).
 */
export async function compareWithReplay(
  db: Knex,
  store: EventStore,
  projection: Projection,
  built: { schema: string; position: LogPosition },
  options: { batchSize?: number; staged?: boolean } = {},
): Promise<VerifyResult> {
  const trx = await db.transaction({ isolationLevel: 'repeatable read' });
  try {
    return await compareInTransaction(trx, store, projection, built, options);
  } finally {
    await trx.rollback().catch(() => {});
  }
}

async function compareInTransaction(
  trx: Knex.Transaction,
  store: EventStore,
  projection: Projection,
  built: { schema: string; position: LogPosition },
  options: { batchSize?: number; staged?: boolean },
): Promise<VerifyResult> {
  const target = built.position;
  const liveSchema = built.schema;
  const scratch = `verify_${projection.name}_${process.pid}`;
  await trx.raw(`CREATE SCHEMA "${scratch}"`);
  await trx.raw(`SET LOCAL search_path TO "${scratch}", public`);
  // the scratch copy has no read indexes, and what depends on batches is not compared (below)
  await replayUpTo(trx, store, projection, target, options);
  const tables: TableDiff[] = [];
  const derived = new Set(projection.derived?.views ?? []);
  for (const [view, table] of Object.entries(projection.exposes)
    .filter(([view]) => !derived.has(view))
    .flatMap(([view, shown]) => tablesOf(shown).map((table) => [view, table] as const))) {
    const live = `"${liveSchema}"."${table}"`;
    const replay = `"${scratch}"."${table}"`;
    const { rows } = await trx.raw<{ rows: { rows: number; only_live: number; only_replay: number }[] }>(
      `SELECT (SELECT count(*) FROM ${live})::int AS rows,
              (SELECT count(*) FROM (SELECT * FROM ${live} EXCEPT ALL SELECT * FROM ${replay}) d)::int AS only_live,
              (SELECT count(*) FROM (SELECT * FROM ${replay} EXCEPT ALL SELECT * FROM ${live}) d)::int AS only_replay`,
    );
    const counts = rows[0]!;
    const sample = async (from: string, minus: string) =>
      (
        await trx.raw<{ rows: { row: unknown }[] }>(`SELECT to_jsonb(d) AS row FROM (SELECT * FROM ${from} EXCEPT ALL SELECT * FROM ${minus}) d LIMIT ${SHOWN}`)
      ).rows.map((r) => r.row);
    tables.push({
      view,
      table,
      rows: counts.rows,
      differing: counts.only_live + counts.only_replay,
      onlyLive: counts.only_live > 0 ? await sample(live, replay) : [],
      onlyReplay: counts.only_replay > 0 ? await sample(replay, live) : [],
    });
  }
  // what depends on how the log came in batches is checked for consistency with the built rows
  let problems: string[] = [];
  if (projection.derived) {
    await trx.raw(`SET LOCAL search_path TO "${liveSchema}", public`);
    problems = await projection.derived.problems(trx);
  }
  const ok = tables.every((t) => t.differing === 0) && problems.length === 0;
  return { name: projection.name, ok, position: positionToken(target), tables, ...(problems.length > 0 && { inconsistent: problems }) };
}

export function verifyReport(result: VerifyResult): string {
  if (!result.ok && result.problem) return `${result.name}: cannot verify: ${result.problem}\n`;
  const rows = result.tables.reduce((sum, t) => sum + t.rows, 0);
  if (result.ok) return `${result.name}: ok (${rows} rows in ${result.tables.length} tables match a replay up to ${result.position})\n`;
  let text = `${result.name}: DIFFERS from a replay up to ${result.position}\n`;
  for (const t of result.tables.filter((t) => t.differing > 0)) {
    text += `  ${t.view} (${t.table}): ${t.differing} differing rows\n`;
    for (const row of t.onlyLive) text += `    live only:   ${JSON.stringify(row)}\n`;
    for (const row of t.onlyReplay) text += `    replay only: ${JSON.stringify(row)}\n`;
  }
  for (const problem of result.inconsistent ?? []) text += `  inconsistent: ${problem}\n`;
  return text;
}
