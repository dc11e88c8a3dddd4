import { compareLogPositions, parsePositionToken, type LogPosition } from '@forum/contracts';
import type { LogTally } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import { CONTROL_CHANNEL, schemaOf, type Projection } from './projection.ts';

/**
 * A build is one physical copy of a projection version: its own schema and its
 * own checkpoint. `live` serves reads (one per projection name), `building`
 * replays the log beside it (at most one per name) and switches in when it has
 * caught up, `retired` is a replaced build whose schema has been dropped. A
 * halted build keeps its state and carries the error.
 */
export type BuildState = 'building' | 'live' | 'retired';

export interface BuildKey {
  readonly name: string;
  readonly version: number;
  readonly build: number;
}

export interface CheckpointRow extends BuildKey {
  position: LogPosition;
  state: BuildState;
  error: string | null;
  failedPosition: LogPosition | null;
  requestedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * The events of the projection's types the build was handed up to its checkpoint, and the sum of
   * their positions, committed with it (null: a build made before builds counted them).
   */
  applied: LogTally | null;
  /** Its tables are known to be wrong (its replay did not account for the log): never resumed, replaced by the next rebuild. */
  discarded: boolean;
  /** Where its staged replay began, while the staged stretch is not yet counted in `applied`. */
  stagedFrom: LogPosition | null;
}

export const buildSchema = (key: BuildKey) => schemaOf(key) + (key.build === 1 ? '' : `_b${key.build}`);
export const buildLabel = (key: BuildKey) => `${key.name} v${key.version}` + (key.build === 1 ? '' : ` build ${key.build}`);

export async function migrateCheckpoints(db: Knex): Promise<void> {
  await db.raw(`
    CREATE SCHEMA IF NOT EXISTS projections;
    CREATE SCHEMA IF NOT EXISTS read;
    CREATE TABLE IF NOT EXISTS projections.checkpoints (
      name text NOT NULL,
      version integer NOT NULL,
      tx xid8 NOT NULL DEFAULT '0',
      pos bigint NOT NULL DEFAULT 0,
      state text NOT NULL DEFAULT 'building',
      error text,
      failed_tx xid8,
      failed_pos bigint,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (name, version)
    );
    -- builds (blue-green rebuilds of one version), added after the first release
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS build integer NOT NULL DEFAULT 1;
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS requested_by text;
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS created_at timestamptz NOT NULL DEFAULT now();
    -- what each build was handed of the log (see CheckpointRow.applied); NULL for builds made before
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS applied_events bigint;
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS applied_positions numeric;
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS discarded boolean NOT NULL DEFAULT false;
    -- where a staged replay began, until its stretch is counted in applied_* (see Worker.stage)
    ALTER TABLE projections.checkpoints ADD COLUMN IF NOT EXISTS staged_from text;
    -- 'halted' was a state before builds: it is now the error column on a live build
    UPDATE projections.checkpoints SET state = 'live' WHERE state = 'halted';
    DO $$ BEGIN
      IF (SELECT array_length(conkey, 1) FROM pg_constraint WHERE conname = 'checkpoints_pkey' AND conrelid = 'projections.checkpoints'::regclass) = 2 THEN
        ALTER TABLE projections.checkpoints DROP CONSTRAINT checkpoints_pkey;
        ALTER TABLE projections.checkpoints ADD PRIMARY KEY (name, version, build);
      END IF;
    END $$;
    CREATE UNIQUE INDEX IF NOT EXISTS checkpoints_one_live ON projections.checkpoints (name) WHERE state = 'live';
    CREATE UNIQUE INDEX IF NOT EXISTS checkpoints_one_building ON projections.checkpoints (name) WHERE state = 'building';
  `);
}

interface RawCheckpoint {
  name: string;
  version: number;
  build: number;
  tx: string;
  pos: string;
  state: BuildState;
  error: string | null;
  failed_tx: string | null;
  failed_pos: string | null;
  requested_by: string | null;
  created_at: Date;
  updated_at: Date;
  applied_events: string | null;
  applied_positions: string | null;
  discarded: boolean;
  staged_from: string | null;
}

const SELECT = `SELECT name, version, build, tx::text AS tx, pos::text AS pos, state, error,
  failed_tx::text AS failed_tx, failed_pos::text AS failed_pos, requested_by, created_at, updated_at,
  applied_events::text AS applied_events, applied_positions::text AS applied_positions, discarded, staged_from FROM projections.checkpoints`;

function toRow(raw: RawCheckpoint): CheckpointRow {
  return {
    name: raw.name,
    version: raw.version,
    build: raw.build,
    position: { transactionId: BigInt(raw.tx), globalPosition: BigInt(raw.pos) },
    state: raw.state,
    error: raw.error,
    failedPosition: raw.failed_tx && raw.failed_pos ? { transactionId: BigInt(raw.failed_tx), globalPosition: BigInt(raw.failed_pos) } : null,
    requestedBy: raw.requested_by,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    applied:
      raw.applied_events !== null && raw.applied_positions !== null ? { events: BigInt(raw.applied_events), positions: BigInt(raw.applied_positions) } : null,
    discarded: raw.discarded,
    stagedFrom: raw.staged_from === null ? null : parsePositionToken(raw.staged_from),
  };
}

export async function readCheckpoint(db: Knex, key: BuildKey): Promise<CheckpointRow | null> {
  const { rows } = await db.raw<{ rows: RawCheckpoint[] }>(`${SELECT} WHERE name = ? AND version = ? AND build = ?`, [key.name, key.version, key.build]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Every build that is live or building (retired ones with `{ retired: true }`). */
export async function readCheckpoints(db: Knex, options: { retired?: boolean } = {}): Promise<CheckpointRow[]> {
  const { rows } = await db.raw<{ rows: RawCheckpoint[] }>(`${SELECT} ${options.retired ? '' : `WHERE state <> 'retired'`} ORDER BY name, version, build`);
  return rows.map(toRow);
}

/** The live build of a projection, if any. */
export async function liveBuild(db: Knex, name: string): Promise<CheckpointRow | null> {
  const { rows } = await db.raw<{ rows: RawCheckpoint[] }>(`${SELECT} WHERE name = ? AND state = 'live'`, [name]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Serializes every change of a projection's builds (creation, switch, retirement) across processes. */
async function lockName(trx: Knex.Transaction, name: string) {
  await trx.raw(`SELECT pg_advisory_xact_lock(4243, hashtext(?))`, [name]);
}

async function buildsOf(trx: Knex.Transaction, name: string): Promise<CheckpointRow[]> {
  const { rows } = await trx.raw<{ rows: RawCheckpoint[] }>(`${SELECT} WHERE name = ? ORDER BY version, build`, [name]);
  return rows.map(toRow);
}

async function insertBuild(trx: Knex.Transaction, key: BuildKey, state: BuildState, requestedBy: string | null): Promise<CheckpointRow> {
  await trx.raw(
    `INSERT INTO projections.checkpoints (name, version, build, state, requested_by, applied_events, applied_positions) VALUES (?, ?, ?, ?, ?, 0, 0)`,
    [key.name, key.version, key.build, state, requestedBy],
  );
  const { rows } = await trx.raw<{ rows: RawCheckpoint[] }>(`${SELECT} WHERE name = ? AND version = ? AND build = ?`, [key.name, key.version, key.build]);
  return toRow(rows[0]!);
}

const nextBuild = (builds: readonly CheckpointRow[], version: number) => Math.max(0, ...builds.filter((b) => b.version === version).map((b) => b.build)) + 1;

/**
 * The builds this code version of a projection should run, creating the first
 * one when there is none: live at once when the projection has never served
 * (reads need its views), else `building` beside the live older version, which
 * it replaces when caught up. Builds of older versions that are still building
 * are retired (their code is gone); a live newer version means this code is
 * superseded and runs nothing.
 */
export async function buildsToRun(
  db: Knex,
  projection: Pick<Projection, 'name' | 'version'>,
): Promise<{ builds: CheckpointRow[]; retired: CheckpointRow[]; superseded: boolean }> {
  return db.transaction(async (trx) => {
    await lockName(trx, projection.name);
    const all = await buildsOf(trx, projection.name);
    const live = all.find((b) => b.state === 'live');
    if (live && live.version > projection.version) return { builds: [], retired: [], superseded: true };
    const obsolete = all.filter((b) => b.state === 'building' && b.version < projection.version);
    for (const old of obsolete) await setState(trx, old, 'retired');
    // retired builds whose schema is still there (a drop that could not get its locks): drop them again
    const { rows: schemas } = await trx.raw<{ rows: { nspname: string }[] }>(`SELECT nspname FROM pg_namespace WHERE nspname = ANY (?)`, [
      all.filter((b) => b.state === 'retired' || obsolete.includes(b)).map(buildSchema),
    ]);
    const retired = all.filter((b) => schemas.some((s) => s.nspname === buildSchema(b)));
    const mine = all.filter((b) => b.version === projection.version && b.state !== 'retired');
    if (mine.length === 0) {
      const key = { name: projection.name, version: projection.version, build: nextBuild(all, projection.version) };
      mine.push(await insertBuild(trx, key, live ? 'building' : 'live', null));
    }
    return { builds: mine, retired, superseded: false };
  });
}

async function setState(trx: Knex.Transaction, key: BuildKey, state: BuildState) {
  await trx.raw(`UPDATE projections.checkpoints SET state = ?, updated_at = now() WHERE name = ? AND version = ? AND build = ?`, [
    state,
    key.name,
    key.version,
    key.build,
  ]);
}

export type RebuildRequest = { build: CheckpointRow; resumed: boolean };

/**
 * Asks for a blue-green rebuild of a projection at `version` (the code's): a
 * new build that replays the log from the start into its own schema. When a
 * build is already under way, that one is answered instead (resumed), so two
 * rebuilds of one projection never run at once. A projection runner picks the
 * build up (a NOTIFY tells runners at once).
 */
export async function requestRebuild(
  db: Knex,
  projection: Pick<Projection, 'name' | 'version'>,
  requestedBy: string,
  options: { notify?: boolean } = {},
): Promise<RebuildRequest> {
  const request = await db.transaction(async (trx) => {
    await lockName(trx, projection.name);
    const all = await buildsOf(trx, projection.name);
    const building = all.find((b) => b.state === 'building');
    if (building && building.version === projection.version && !building.discarded) return { build: building, resumed: true };
    if (building) await setState(trx, building, 'retired');
    const key = { name: projection.name, version: projection.version, build: nextBuild(all, projection.version) };
    const hasLive = all.some((b) => b.state === 'live');
    return { build: await insertBuild(trx, key, hasLive ? 'building' : 'live', requestedBy), resumed: false };
  });
  if (options.notify ?? true) await notifyRunners(db, `build:${projection.name}`);
  return request;
}

/** Tells every projection runner to look for new builds now. */
export async function notifyRunners(db: Knex, payload: string): Promise<void> {
  await db.raw('SELECT pg_notify(?, ?)', [CONTROL_CHANNEL, payload]);
}

export type SwitchOutcome = { switched: true; retired: CheckpointRow | null } | { switched: false; reason: 'behind' | 'not-building' };

/**
 * Makes a caught-up build live in one transaction: the read views point at
 * its schema and the live build is retired. It must have applied at least
 * what the live build has, so a reader who saw the live build reach a
 * position still sees it after the switch. The retired build's runner finds
 * its checkpoint gone from under it at its next batch and stops.
 */
export async function switchToBuild(db: Knex, key: BuildKey, publish: (trx: Knex.Transaction) => Promise<void>): Promise<SwitchOutcome> {
  return db.transaction(async (trx) => {
    await lockName(trx, key.name);
    const { rows } = await trx.raw<{ rows: RawCheckpoint[] }>(`${SELECT} WHERE name = ? AND state IN ('live', 'building') FOR UPDATE`, [key.name]);
    const builds = rows.map(toRow);
    const mine = builds.find((b) => b.version === key.version && b.build === key.build);
    if (!mine || mine.state !== 'building' || mine.error) return { switched: false, reason: 'not-building' } as const;
    const live = builds.find((b) => b.state === 'live') ?? null;
    if (live && compareLogPositions(mine.position, live.position) < 0) return { switched: false, reason: 'behind' } as const;
    await publish(trx);
    if (live) await setState(trx, live, 'retired');
    await setState(trx, mine, 'live');
    return { switched: true, retired: live } as const;
  });
}

/**
 * Halts a build whose tables are known to be wrong, for good: the error says why, `status`,
 * `/readyz` and the admin API show it, the live build keeps serving, and the next rebuild request
 * replaces it instead of resuming it.
 */
export async function discardBuild(db: Knex, key: BuildKey, error: string, at: LogPosition): Promise<void> {
  await db.raw(
    `UPDATE projections.checkpoints SET discarded = true, error = ?, failed_tx = ?::text::xid8, failed_pos = ?, updated_at = now()
     WHERE name = ? AND version = ? AND build = ? AND state = 'building'`,
    [error, at.transactionId.toString(), at.globalPosition.toString(), key.name, key.version, key.build],
  );
}

/**
 * Runs `publish` (pointing the read views at the build) only if the build is still live, under
 * the projection's lock, so that no switch comes between the look and the views. A worker that
 * read its row as live just before a switch would otherwise point the views back at the build
 * being retired, and dropping that build's schema would take the views with it.
 */
export async function publishIfLive(trx: Knex.Transaction, key: BuildKey, publish: (trx: Knex.Transaction) => Promise<void>): Promise<boolean> {
  await lockName(trx, key.name);
  const { rows } = await trx.raw<{ rows: { state: BuildState }[] }>(`SELECT state FROM projections.checkpoints WHERE name = ? AND version = ? AND build = ?`, [
    key.name,
    key.version,
    key.build,
  ]);
  if (rows[0]?.state !== 'live') return false;
  await publish(trx);
  return true;
}
