import { START, type LogPosition } from '@forum/contracts';
import type { Knex } from '@forum/platform';

export type ProjectionState = 'building' | 'live' | 'halted' | 'retired';

export interface CheckpointRow {
  name: string;
  version: number;
  position: LogPosition;
  state: ProjectionState;
  error: string | null;
  failedPosition: LogPosition | null;
  updatedAt: Date;
}

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
  `);
}

interface RawCheckpoint {
  name: string;
  version: number;
  tx: string;
  pos: string;
  state: ProjectionState;
  error: string | null;
  failed_tx: string | null;
  failed_pos: string | null;
  updated_at: Date;
}

const SELECT = `SELECT name, version, tx::text AS tx, pos::text AS pos, state, error,
  failed_tx::text AS failed_tx, failed_pos::text AS failed_pos, updated_at FROM projections.checkpoints`;

function toRow(raw: RawCheckpoint): CheckpointRow {
  return {
    name: raw.name,
    version: raw.version,
    position: { transactionId: BigInt(raw.tx), globalPosition: BigInt(raw.pos) },
    state: raw.state,
    error: raw.error,
    failedPosition:
      raw.failed_tx && raw.failed_pos ? { transactionId: BigInt(raw.failed_tx), globalPosition: BigInt(raw.failed_pos) } : null,
    updatedAt: raw.updated_at,
  };
}

export async function readCheckpoint(db: Knex, name: string, version: number): Promise<CheckpointRow | null> {
  const { rows } = await db.raw<{ rows: RawCheckpoint[] }>(`${SELECT} WHERE name = ? AND version = ?`, [name, version]);
  return rows[0] ? toRow(rows[0]) : null;
}

export async function readCheckpoints(db: Knex): Promise<CheckpointRow[]> {
  const { rows } = await db.raw<{ rows: RawCheckpoint[] }>(`${SELECT} ORDER BY name, version`);
  return rows.map(toRow);
}

export async function ensureCheckpoint(db: Knex, name: string, version: number): Promise<CheckpointRow> {
  await db.raw(`INSERT INTO projections.checkpoints (name, version) VALUES (?, ?) ON CONFLICT DO NOTHING`, [name, version]);
  return (await readCheckpoint(db, name, version)) ?? { name, version, position: START, state: 'building', error: null, failedPosition: null, updatedAt: new Date() };
}
