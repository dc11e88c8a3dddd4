/**
 * A synthetic event log for rebuild benchmarks: the forum's real event types,
 * in the shapes and stream layout the command side writes, in a realistic mix
 * (per 1M events about 10k users, 100k posts, 250k comments, 500k votes, 10k
 * reports, 10k edits, and memberships, deletions, moderation, profile changes, tags,
 * announcements and contact messages around them; handles, follows, notification
 * preferences and @mentions too). Deterministic for a seed.
 *
 * It is a log the forum itself could have written: a simulated forum (synthetic/)
 * picks who does what, and the command side's own deciders decide each command's
 * events on the streams it keeps by evolving the events written so far. This file
 * loads such a log into an empty event store.
 */
import pg from 'pg';
import { PERSONAL_DATA } from '@forum/contracts';
import { migrateEventStore } from '@forum/eventstore';
import { syntheticLog, type SyntheticLogOptions } from './synthetic/generate.ts';

export { syntheticLog, type SyntheticEvent, type SyntheticLogOptions } from './synthetic/generate.ts';

export interface LoadOptions extends SyntheticLogOptions {
  /** Events per INSERT statement. */
  readonly statementRows?: number;
  /** Events per transaction: the log gets several transaction ids, as a real one has many. */
  readonly transactionRows?: number;
  /** Connections inserting at once (each its own transactions). */
  readonly connections?: number;
  readonly onProgress?: (loaded: number) => void;
}

export interface LoadResult {
  readonly events: number;
  readonly byType: Record<string, number>;
  readonly streams: number;
  readonly ms: number;
}

// One JSON text per statement: cheaper to send and parse than seven array parameters
// (arrays of JSON strings are escaped twice over)
const INSERT_EVENTS = `INSERT INTO eventstore.events (global_position, stream_id, stream_version, type, data, metadata, recorded_at)
  OVERRIDING SYSTEM VALUE
  SELECT p, s, v, t, d, m, r FROM json_to_recordset($1::json) AS x(p bigint, s text, v integer, t text, d jsonb, m jsonb, r timestamptz)`;

/**
 * Generates the synthetic log and loads it into an EMPTY event store (creating
 * its tables if needed) in multi-row INSERTs of `statementRows` events, committed
 * every `transactionRows`; then the streams' versions and the position sequence.
 *
 * Transaction k takes positions [k * transactionRows, …) and runs on connection
 * k mod `connections`, so the database inserts on two connections while this
 * process generates the next rows. Log order is (transaction id, position):
 * each transaction takes its id before the next one begins, so that order is
 * the positions' order, as it would be for commands that ran one after another.
 * A failure leaves the transactions committed before it (an empty store is the
 * only thing it loads into, so start over on a fresh one).
 */
export async function loadSyntheticLog(connectionString: string, options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const statementRows = options.statementRows ?? 5000;
  const transactionRows = Math.max(options.transactionRows ?? 50_000, statementRows);
  const connections = Math.max(1, options.connections ?? 2);
  const pool = new pg.Pool({ connectionString, max: connections + 1, application_name: 'forum-synthetic-log' });
  pool.on('error', () => {});
  const lanes: pg.PoolClient[] = [];
  try {
    await migrateEventStore(pool);
    for (let i = 0; i < connections; i++) lanes.push(await pool.connect());
    const client = lanes[0]!;
    const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM eventstore.events) AS any');
    if (rows[0]!.any) throw new Error('The event store is not empty: the synthetic log only loads into an empty store');

    // per connection: its statements chained one after another, and how many are waiting
    const chains: Promise<unknown>[] = lanes.map(() => Promise.resolve());
    const waiting = lanes.map(() => 0);
    const send = (lane: number, sql: string, params?: unknown[]) => {
      waiting[lane]! += 1;
      const query = chains[lane]!.then(() => lanes[lane]!.query(sql, params)).finally(() => (waiting[lane]! -= 1));
      query.catch(() => {}); // awaited by settle; this only keeps a failure from going unhandled meanwhile
      chains[lane] = query;
    };
    /** Until at most `keep` statements of the connection wait (0: all answered; a failure throws here). */
    const settle = async (lane: number, keep: number) => {
      while (waiting[lane]! > keep) await Promise.race([chains[lane], new Promise((resolve) => setTimeout(resolve, 1))]);
      if (keep === 0) await chains[lane];
    };

    // Each statement's members' keys are made first, committed on a connection of their own: the
    // lanes' long transactions would otherwise make them in each other's way (and deadlock)
    const keyMaker = await pool.connect();
    lanes.push(keyMaker);
    let subjects = new Set<string>();
    const makeKeys = async () => {
      if (subjects.size === 0) return;
      const wanted = [...subjects];
      subjects = new Set();
      await keyMaker.query('SELECT count(keystore.keys_for(s)) FROM unnest($1::text[]) AS s', [wanted]);
    };
    // So are the (type, version) pairs the store's trigger catalogues: two lanes whose transactions
    // each first met a type the other met too would wait for each other's rows of the catalog
    const catalogued = new Set<string>();
    let uncatalogued: { type: string; version: string }[] = [];
    const catalogue = async () => {
      if (uncatalogued.length === 0) return;
      const pairs = uncatalogued;
      uncatalogued = [];
      await keyMaker.query('INSERT INTO eventstore.schema_versions (type, version) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING', [
        pairs.map((pair) => pair.type),
        pairs.map((pair) => pair.version),
      ]);
    };

    const byType: Record<string, number> = {};
    let count = 0;
    let transaction = -1;
    let inTransaction = 0;
    let rowsJson: string[] = [];
    const flush = async () => {
      if (rowsJson.length === 0) return;
      const rows = rowsJson.length;
      const param = '[' + rowsJson.join(',') + ']';
      rowsJson = [];
      if (inTransaction === 0) {
        transaction += 1;
        const lane = transaction % connections;
        await settle(lane, 0); // its previous transaction has committed
        await lanes[lane]!.query('BEGIN');
        await lanes[lane]!.query('SELECT pg_current_xact_id()'); // takes its id now, after the previous transaction's
      }
      const lane = transaction % connections;
      await settle(lane, 1);
      await makeKeys();
      await catalogue();
      send(lane, INSERT_EVENTS, [param]);
      inTransaction += rows;
      if (inTransaction >= transactionRows) {
        send(lane, 'COMMIT');
        inTransaction = 0;
      }
    };
    try {
      for (const event of syntheticLog(options)) {
        count += 1;
        byType[event.type] = (byType[event.type] ?? 0) + 1;
        const personal = PERSONAL_DATA[`${event.type}@${event.metadata.schemaVersion}`];
        if (personal) subjects.add(String(event.data[personal.subject]));
        const version = String(event.metadata.schemaVersion ?? '?');
        if (!catalogued.has(`${event.type}@${version}`)) {
          catalogued.add(`${event.type}@${version}`);
          uncatalogued.push({ type: event.type, version });
        }
        // stream ids and types are the generator's own (uuids and fixed names): nothing to escape
        rowsJson.push(
          `{"p":${count},"s":"${event.streamId}","v":${event.streamVersion},"t":"${event.type}","d":${JSON.stringify(event.data)},"m":${JSON.stringify(event.metadata)},"r":"${event.recordedAt}"}`,
        );
        if (rowsJson.length >= statementRows) {
          await flush();
          options.onProgress?.(count);
        }
      }
      await flush();
      if (inTransaction > 0) send(transaction % connections, 'COMMIT');
      for (let lane = 0; lane < connections; lane++) await settle(lane, 0);
    } catch (error) {
      for (let lane = 0; lane < connections; lane++) {
        await chains[lane]!.catch(() => {});
        await lanes[lane]!.query('ROLLBACK').catch(() => {});
      }
      throw error;
    }
    // in key order, so the streams' primary key is built by appending rather than by random inserts
    const streams = await client.query(
      `INSERT INTO eventstore.streams (stream_id, version) SELECT stream_id, max(stream_version) FROM eventstore.events GROUP BY stream_id ORDER BY stream_id`,
    );
    await client.query(
      `SELECT setval(pg_get_serial_sequence('eventstore.events', 'global_position'), GREATEST((SELECT max(global_position) FROM eventstore.events), 1))`,
    );
    await client.query('ANALYZE eventstore.events');
    return { events: count, byType, streams: streams.rowCount ?? 0, ms: Math.round(performance.now() - started) };
  } finally {
    for (const lane of lanes) lane.release();
    await pool.end();
  }
}
