import { prepared, type Knex, type Logger } from '@forum/platform';
import { buildSchema, type BuildKey } from './checkpoints.ts';
import { READ_SCHEMA, type Projection } from './projection.ts';
import { INDEX_NOT_YET_USABLE_SQL } from './status.ts';

/** A transaction whose search_path is the build's schema, so the projection's SQL names its tables bare. */
export function inBuildSchema<T>(db: Knex, schema: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
    buildSchemas.set(trx, schema);
    return work(trx);
  });
}

/** The build schema each transaction of `inBuildSchema` runs in. */
const buildSchemas = new WeakMap<Knex.Transaction, string>();

/**
 * A statement of a build's tables (named by the search_path) prepared once per connection and
 * build schema (platform's `prepared`, which says for which statements); as a plain one in a
 * transaction that is not a build's.
 */
export function preparedInBuild<Result>(trx: Knex.Transaction, sql: string, bindings: readonly Knex.RawBinding[]): Knex.Raw<Result> {
  const schema = buildSchemas.get(trx);
  return schema === undefined ? trx.raw<Result>(sql, bindings) : prepared<Result>(trx, sql, bindings, schema);
}

/**
 * Points the `read` views (or those of the schema `into`: a snapshot's) at a build's tables. CREATE OR REPLACE keeps each
 * view's identity, so a reader mid-query is never left without one; a new
 * version whose columns differ replaces the view inside the same transaction.
 * Readers lock the views in their own order, so the switch waits for each
 * view only briefly: rather than deadlock with a reader (and have PostgreSQL
 * cancel one of them, maybe the reader), it gives up and is tried again.
 */
export async function publishViews(trx: Knex.Transaction, projection: Projection, schema: string, into: string = READ_SCHEMA) {
  await trx.raw(`SET LOCAL lock_timeout TO '100ms'`);
  await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${into}"`);
  // a query's bare table names are the build's: PostgreSQL binds them into the view as it is created
  const { rows } = await trx.raw<{ rows: { path: string }[] }>(`SELECT current_setting('search_path') AS path`);
  await trx.raw(`SELECT set_config('search_path', ?, true)`, [`"${schema}"`]);
  for (const [view, shown] of Object.entries(projection.exposes)) {
    const definition = typeof shown === 'string' ? `SELECT * FROM "${schema}"."${shown}"` : shown.select;
    try {
      await trx.transaction((savepoint) => savepoint.raw(`CREATE OR REPLACE VIEW "${into}"."${view}" AS ${definition}`));
    } catch (error) {
      if ((error as { code?: string }).code !== '42P16') throw error; // other columns: replace the view
      await trx.raw(`DROP VIEW IF EXISTS "${into}"."${view}"`);
      await trx.raw(`CREATE VIEW "${into}"."${view}" AS ${definition}`);
    }
  }
  await trx.raw(`SELECT set_config('search_path', ?, true)`, [rows[0]!.path]);
}

/** The names of the tables in `schema`. */
export async function tablesIn(db: Knex, schema: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { name: string }[] }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = ?', [schema]);
  return rows.map((r) => r.name);
}

/**
 * Whether readers starting now can use every index of `schema`. An index
 * built over rows a replay updated, while older transactions still ran (a
 * long settle of another build), is marked `indcheckxmin`: the planner leaves
 * it out of queries whose snapshot is older than the index, so that until
 * those transactions end, a build switched in would answer by scanning its
 * tables (each post's comments out of 270k rows, say).
 */
export async function indexesUsable(db: Knex, schema: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { usable: boolean }[] }>(
    `SELECT NOT EXISTS (
       SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ? AND ${INDEX_NOT_YET_USABLE_SQL}
     ) AS usable`,
    [schema],
  );
  return rows[0]!.usable;
}

/** Drops a retired build's schema; a runner still writing to it holds it up for a moment at most. */
export async function dropBuild(db: Knex, build: BuildKey, log: Logger) {
  const schema = buildSchema(build);
  try {
    await db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL lock_timeout TO '10s'`);
      await trx.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
  } catch (error) {
    log.warn({ err: error, schema }, 'could not drop a retired build yet; the next look will try again');
  }
}
