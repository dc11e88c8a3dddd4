import type { LogPosition } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import pg from 'pg';
import { inBuildSchema, publishViews, tablesIn } from '../runner/build-schema.ts';
import { createReadIndexes, type Projection } from '../runner/projection.ts';
import { replayUpTo } from './replay-to.ts';
import { listSnapshots, LOCK_CLASS, snapshotSchema } from './snapshot-list.ts';

export { listSnapshots, snapshotSchema };

/**
 * Snapshots: every read model as of one position of the log, each built as a rebuild builds it
 * (the same replay, read indexes and derived rows, see `replayUpTo`) but stopped at that position
 * and never switched in, in schemas of its own that stay read-only for audit queries
 * (docs/operations/time-travel.md).
 *
 * - `snapshot_<name>`: one view per view of `read`, named alike (what operators query);
 * - `snapshot_<name>__<projection>`: each read model's tables, behind those views.
 *
 * Read-only is enforced by triggers on every table (as the log's immutability is): privileges
 * would not bind the forum's own role, which owns the tables and is often a superuser, and
 * `default_transaction_read_only` is a default any session may SET off. DROP is not a write:
 * `dropSnapshot` removes a snapshot.
 */

/** A snapshot's name: lower-case letters and digits in words joined by single underscores (`__` separates the schemas' parts). */
export const SNAPSHOT_NAME = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
export const SNAPSHOT_NAME_MAX = 30;

const tablesSchema = (name: string, projection: Pick<Projection, 'name'>) => `snapshot_${name}__${projection.name}`;

export class SnapshotError extends Error {
  constructor(
    readonly code: 'SNAPSHOT_EXISTS' | 'SNAPSHOT_NOT_FOUND' | 'SNAPSHOT_BUSY' | 'SNAPSHOT_NAME',
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

export async function migrateSnapshots(db: Knex): Promise<void> {
  await db.raw(`
    CREATE SCHEMA IF NOT EXISTS projections;
    CREATE TABLE IF NOT EXISTS projections.snapshots (
      name text PRIMARY KEY,
      tx xid8 NOT NULL,
      pos bigint NOT NULL,
      at timestamptz NOT NULL,
      state text NOT NULL DEFAULT 'building',
      built integer NOT NULL DEFAULT 0,
      total integer NOT NULL,
      current text,
      current_pos bigint,
      error text,
      requested_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      schemas text[] NOT NULL
    );
    CREATE OR REPLACE FUNCTION projections.snapshot_read_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION '%.% belongs to a snapshot of the read models: snapshots are read-only', TG_TABLE_SCHEMA, TG_TABLE_NAME
          USING ERRCODE = 'read_only_sql_transaction', HINT = 'forumctl snapshot --drop <name> removes a snapshot';
      END $fn$;
  `);
}

export interface SnapshotRequest {
  db: Knex;
  /** For the session that holds the snapshot's lock while it builds. */
  connectionString: string;
  store: EventStore;
  projections: readonly Projection[];
  name: string;
  /** The log position it stops at (an event's), and that event's time. */
  position: LogPosition;
  at: Date;
  requestedBy: string;
  /** Called as the build goes (each stretch of the log applied, each read model done). */
  onProgress?: (progress: { built: number; total: number; current: string | null; percent: number }) => void;
}

/** Builds a snapshot (see above), read model after read model; a failure is recorded on it and thrown. */
export async function buildSnapshot(request: SnapshotRequest): Promise<void> {
  const { db, store, projections, name, position } = request;
  if (!SNAPSHOT_NAME.test(name) || name.length > SNAPSHOT_NAME_MAX) {
    throw new SnapshotError(
      'SNAPSHOT_NAME',
      `A snapshot's name is lower-case letters and digits, words joined by one _, at most ${SNAPSHOT_NAME_MAX}: not ${name}`,
    );
  }
  await migrateSnapshots(db);
  const lock = new pg.Client({ connectionString: request.connectionString, application_name: 'forum-snapshot' });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_CLASS, name]);
    const schemas = [snapshotSchema(name), ...projections.map((p) => tablesSchema(name, p))];
    const { rowCount } = await db.raw<{ rowCount: number }>(
      `INSERT INTO projections.snapshots (name, tx, pos, at, total, requested_by, schemas) VALUES (?, ?::text::xid8, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
      [name, position.transactionId.toString(), position.globalPosition.toString(), request.at, projections.length, request.requestedBy, schemas],
    );
    if (rowCount !== 1)
      throw new SnapshotError('SNAPSHOT_EXISTS', `A snapshot named ${name} exists: forumctl snapshot --drop ${name} first, or choose another --name`);
    const target = Number(position.globalPosition);
    const report = async (built: number, current: string | null, at: LogPosition | null) => {
      const percent = at === null ? 0 : Math.min(100, Math.floor((Number(at.globalPosition) * 100) / Math.max(target, 1)));
      await db.raw(`UPDATE projections.snapshots SET built = ?, current = ?, current_pos = ? WHERE name = ?`, [
        built,
        current,
        at?.globalPosition.toString() ?? null,
        name,
      ]);
      request.onProgress?.({ built, total: projections.length, current, percent });
    };
    try {
      await db.raw(`CREATE SCHEMA "${snapshotSchema(name)}"`);
      for (const [index, projection] of projections.entries()) {
        const schema = tablesSchema(name, projection);
        await report(index, projection.name, null);
        await db.transaction(async (trx) => {
          await trx.raw(`CREATE SCHEMA "${schema}"`);
          await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
          await replayUpTo(trx, store, projection, position, { onProgress: (at) => report(index, projection.name, at) });
        });
        // the tail of a replay, as a rebuild's (finishReplay): read indexes, derived rows, statistics
        await inBuildSchema(db, schema, async (trx) => {
          await createReadIndexes(trx, projection);
          await projection.derived?.rebuild(trx);
        });
        await db.transaction(async (trx) => {
          for (const table of await tablesIn(trx, schema)) {
            await trx.raw(`ANALYZE "${schema}"."${table}"`);
            await trx.raw(
              `CREATE TRIGGER snapshot_read_only BEFORE INSERT OR UPDATE OR DELETE ON "${schema}"."${table}" FOR EACH ROW EXECUTE FUNCTION projections.snapshot_read_only()`,
            );
            await trx.raw(
              `CREATE TRIGGER snapshot_read_only_truncate BEFORE TRUNCATE ON "${schema}"."${table}" FOR EACH STATEMENT EXECUTE FUNCTION projections.snapshot_read_only()`,
            );
          }
          await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
          await publishViews(trx, projection, schema, snapshotSchema(name));
        });
      }
      await db.raw(`UPDATE projections.snapshots SET state = 'ready', built = total, current = NULL, current_pos = NULL, finished_at = now() WHERE name = ?`, [
        name,
      ]);
      request.onProgress?.({ built: projections.length, total: projections.length, current: null, percent: 100 });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.raw(`UPDATE projections.snapshots SET state = 'failed', error = ?, finished_at = now() WHERE name = ?`, [message, name]).catch(() => {});
      throw error;
    }
  } finally {
    await lock.end().catch(() => {});
  }
}

/** Drops a snapshot and its schemas; refused while another process is building it. */
export async function dropSnapshot(db: Knex, name: string): Promise<void> {
  const snapshot = (await listSnapshots(db)).find((s) => s.name === name);
  if (!snapshot) throw new SnapshotError('SNAPSHOT_NOT_FOUND', `No snapshot named ${name}: forumctl snapshot --list shows them`);
  if (snapshot.state === 'building')
    throw new SnapshotError('SNAPSHOT_BUSY', `Snapshot ${name} is being built: wait for it to end, or stop its forumctl, then drop it`);
  await db.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: { schemas: string[] }[] }>(`DELETE FROM projections.snapshots WHERE name = ? RETURNING schemas`, [name]);
    for (const schema of rows[0]?.schemas ?? []) await trx.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
}
