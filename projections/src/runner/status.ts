import { compareLogPositions, positionToken, type LogPosition, type ProjectionStatus } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { buildSchema, readCheckpoints } from './checkpoints.ts';
import { indexStatements, type Projection } from './projection.ts';

/**
 * Every live or building projection build with its checkpoint, the log's head and its lag.
 * The lag counts from the last event in log order (transaction, then position): a
 * transaction that took its id before another but wrote after it has the log's highest
 * positions, yet comes before it, so a build past both is caught up however high those are.
 */
export async function projectionStatus(db: Knex): Promise<ProjectionStatus[]> {
  const [checkpoints, head] = await Promise.all([
    readCheckpoints(db),
    db.raw<{ rows: { head: string | null; tx: string | null; pos: string | null }[] }>(
      `SELECT (SELECT max(global_position) FROM eventstore.events)::text AS head, last.tx, last.pos
       FROM (SELECT NULL) nothing
       LEFT JOIN (SELECT transaction_id::text AS tx, global_position::text AS pos FROM eventstore.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1) last ON true`,
    ),
  ]);
  const row = head.rows[0];
  const headPosition = BigInt(row?.head ?? '0');
  const last: LogPosition | null = row?.tx && row.pos ? { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) } : null;
  return checkpoints.map((c): ProjectionStatus => {
    const role = c.state === 'building' ? 'building' : 'live';
    const behind = last !== null && compareLogPositions(c.position, last) < 0;
    return {
      name: c.name,
      version: c.version,
      build: c.build,
      schema: buildSchema(c),
      state: c.error ? 'halted' : role,
      role,
      checkpoint: positionToken(c.position),
      head: headPosition.toString(),
      lag: behind ? Math.max(1, Number(headPosition - c.position.globalPosition)) : 0,
      error: c.error,
      failedPosition: c.failedPosition ? positionToken(c.failedPosition) : null,
      requestedBy: c.requestedBy,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  });
}

/** The name of the index a read-index statement creates (`CREATE INDEX IF NOT EXISTS <name> ON …`). */
const INDEX_NAME = /^CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+) ON /i;

/** The read indexes a projection declares, by name (see `Projection.indexes`). */
export function readIndexNames(projection: Pick<Projection, 'name' | 'indexes'>): string[] {
  return indexStatements(projection).map((statement) => {
    const name = INDEX_NAME.exec(statement)?.[1];
    if (!name) throw new Error(`${projection.name}: a read index statement readiness cannot name: ${statement}`);
    return name;
  });
}

/**
 * SQL over `pg_index i`: true for an index built with `indcheckxmin` (over rows updated in place
 * while older transactions ran) that a reader starting now cannot use yet. The planner leaves such
 * an index out of a query whose snapshot's xmin is not past the `pg_index` row's creator; it is
 * usable once that creator is older than every transaction running. Compared as ages: xids wrap,
 * and a frozen row is as old as can be. Shared by readiness and the switch of a rebuilt build.
 */
export const INDEX_NOT_YET_USABLE_SQL = `(i.indcheckxmin AND age(i.xmin) <= age((pg_snapshot_xmin(pg_current_snapshot())::text::numeric % 4294967296)::text::xid))`;

/** Per schema, the indexes there that readers can use: built (valid and ready) and not waiting on older transactions. */
async function usableIndexes(db: Knex, schemas: readonly string[]): Promise<Map<string, Set<string>>> {
  const { rows } = await db.raw<{ rows: { schema: string; name: string }[] }>(
    `SELECT n.nspname AS schema, c.relname AS name
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ANY(?) AND i.indisvalid AND i.indisready AND NOT ${INDEX_NOT_YET_USABLE_SQL}`,
    [[...schemas]],
  );
  const usable = new Map<string, Set<string>>();
  for (const row of rows) usable.set(row.schema, (usable.get(row.schema) ?? new Set()).add(row.name));
  return usable;
}

/**
 * Ready when every live projection is running, within `maxLag` events of the head, and has every
 * read index its code declares, usable (a first build replaying a big log builds them at its end:
 * until then its pages would scan whole tables). A rebuild under way is shown, not a problem.
 */
export async function projectionsCheck(db: Knex, maxLag: number, projections: readonly Pick<Projection, 'name' | 'indexes'>[]) {
  const status = await projectionStatus(db);
  const live = status.filter((p) => p.role === 'live');
  const usable = await usableIndexes(
    db,
    live.map((p) => p.schema),
  );
  const declared = new Map(projections.map((p) => [p.name, readIndexNames(p)]));
  const missing = new Map(live.map((p) => [p.schema, (declared.get(p.name) ?? []).filter((name) => !usable.get(p.schema)?.has(name))]));
  const problems = live.filter((p) => p.state === 'halted' || p.lag > maxLag || missing.get(p.schema)!.length > 0);
  return {
    ok: live.length > 0 && problems.length === 0,
    detail: status.map(({ name, version, build, state, lag, error, failedPosition, schema, role }) => ({
      name,
      version,
      build,
      state,
      lag,
      ...(error ? { error, failedPosition } : {}),
      ...(role === 'live' && missing.get(schema)!.length > 0 ? { missingIndexes: missing.get(schema) } : {}),
    })),
  };
}
