import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { migrateHistoryIndexes } from './history.ts';
import { migrateSealing, sealStoredEvents } from './sealing-sql.ts';

/** The advisory lock a migration holds: processes starting at once migrate one after the other. */
export const SCHEMA_LOCK = 7_243_901;
const SCHEMA_LOCK_RETRY_MS = 50;

/** An event's stored schema version, as the catalog `eventstore.schema_versions` lists it ('?': none in its metadata). */
export const STORED_VERSION = `coalesce(metadata->>'schemaVersion', '?')`;

/** Catalogues the (type, version) pairs of the events `from` selects. */
const CATALOGUE_VERSIONS = (from: string) =>
  `INSERT INTO eventstore.schema_versions (type, version) SELECT DISTINCT type, ${STORED_VERSION} FROM ${from} ON CONFLICT DO NOTHING`;

/**
 * The schema lock, asked for again and again rather than waited for in one statement: a waiting
 * statement holds a snapshot, and the holder's CREATE INDEX CONCURRENTLY waits for every older
 * snapshot to end, so two processes starting at once would deadlock.
 */
async function takeSchemaLock(client: pg.PoolClient): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [SCHEMA_LOCK]);
    if (rows[0]!.taken) return;
    await delay(SCHEMA_LOCK_RETRY_MS);
  }
}

export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await takeSchemaLock(client);
    const { rows } = await client.query<{ catalogued: boolean }>(`SELECT to_regclass('eventstore.schema_versions') IS NOT NULL AS catalogued`);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS eventstore;
      CREATE TABLE IF NOT EXISTS eventstore.streams (
        stream_id text PRIMARY KEY,
        version integer NOT NULL CHECK (version > 0)
      );
      CREATE TABLE IF NOT EXISTS eventstore.events (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        stream_id text NOT NULL,
        stream_version integer NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        UNIQUE (stream_id, stream_version)
      );
      CREATE INDEX IF NOT EXISTS events_log_order ON eventstore.events (transaction_id, global_position);
      -- the events of some types in a stretch of positions, without reading the others (a staged
      -- replay reads each type of a range on its own: a range's few deletions, say, among 100k events)
      CREATE INDEX IF NOT EXISTS events_by_type ON eventstore.events (type, global_position);
      CREATE TABLE IF NOT EXISTS eventstore.idempotency_keys (
        key text PRIMARY KEY,
        answer jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `);
    // personal data is sealed as it is written (and the log's one sanctioned rewrite is defined: forbid_change)
    await migrateSealing(client);
    await client.query(`
      CREATE OR REPLACE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON eventstore.events
        FOR EACH ROW EXECUTE FUNCTION eventstore.forbid_change();
      CREATE OR REPLACE TRIGGER events_no_truncate BEFORE TRUNCATE ON eventstore.events
        FOR EACH STATEMENT EXECUTE FUNCTION eventstore.forbid_change();
      -- Each (type, schema version) the log holds, whoever wrote it ('?': no version in the metadata).
      -- A range of the log is found without reading each event's version when none of its types has
      -- a version SQL cannot read. Kept by the statement that inserts the events, so it is committed
      -- with them (or, for a pair another transaction is inserting, before them).
      CREATE TABLE IF NOT EXISTS eventstore.schema_versions (
        type text NOT NULL,
        version text NOT NULL,
        PRIMARY KEY (type, version)
      );
      CREATE OR REPLACE FUNCTION eventstore.catalog_schema_versions() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          ${CATALOGUE_VERSIONS('appended')};
          RETURN NULL;
        END $$;
      CREATE OR REPLACE TRIGGER events_schema_versions AFTER INSERT ON eventstore.events
        REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION eventstore.catalog_schema_versions();
      -- a log written before the catalog: catalogued once, behind the trigger's lock on new events
      ${rows[0]!.catalogued ? '' : `${CATALOGUE_VERSIONS('eventstore.events')};`}
    `);
    // events stored before sealing existed are sealed once, behind the lock (other processes wait, then skip it)
    await sealStoredEvents(client);
    await migrateHistoryIndexes(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {});
    client.release();
  }
}
