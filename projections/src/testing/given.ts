import { createPostgresEventStore, type EventStore, type RecordedEvent, type SqlLog } from '@forum/eventstore';
import { currentSchemaVersion, upcast, type LogPosition } from '@forum/contracts';
import { createTestDatabase, testEventMetadata } from '@forum/platform/testing';
import { createKnex, type Knex } from '@forum/platform';
import { expect } from 'vitest';
import { applyOwn, createReadIndexes, settleReplay, stageUntil, type Projection } from '../runner/projection.ts';

/**
 * A projection on its own, in a scratch schema of a fresh database: given
 * events (applied in batches as the runner would), then read its tables.
 */
export async function projectionHarness(prefix: string) {
  const database = await createTestDatabase(prefix);
  const db = createKnex(database.url);
  let schemas = 0;
  let position = 0n;
  /** The log a replay stages from (created when first needed). */
  let store: Promise<EventStore> | null = null;

  /** Writes the events into the log as the store keeps them, at their positions (each in a transaction of its own). */
  async function logged(events: readonly RecordedEvent[]): Promise<EventStore> {
    store ??= createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
    const log = await store;
    await db.raw(
      `INSERT INTO eventstore.events (global_position, transaction_id, stream_id, stream_version, type, data, metadata)
       OVERRIDING SYSTEM VALUE
       SELECT pos, pos::text::xid8, stream_id, pos, type, data, metadata
       FROM jsonb_to_recordset(?::jsonb) AS x(pos bigint, stream_id text, type text, data jsonb, metadata jsonb)
       ON CONFLICT DO NOTHING`,
      [
        JSON.stringify(
          events.map((e) => ({ pos: e.position.globalPosition.toString(), stream_id: e.streamId, type: e.type, data: e.data, metadata: e.metadata })),
        ),
      ],
    );
    return log;
  }

  return {
    db,
    /** A new empty schema with the projection migrated (twice: migrations run at every start). */
    async fresh(projection: Projection, before?: (trx: Knex.Transaction) => Promise<void>) {
      const schema = `${projection.name}_t${++schemas}`;
      const inSchema = async <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
        db.transaction(async (trx) => {
          await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
          await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
          return work(trx);
        });
      if (before) await inSchema(before);
      await inSchema((trx) => projection.migrate(trx));
      await inSchema((trx) => projection.migrate(trx));
      await inSchema((trx) => createReadIndexes(trx, projection));
      const indexNames = async () =>
        (await db.raw<{ rows: { indexname: string }[] }>('SELECT indexname FROM pg_indexes WHERE schemaname = ? ORDER BY 1', [schema])).rows.map(
          (r) => r.indexname,
        );
      const indexed = await indexNames();
      return {
        schema,
        inSchema,
        /** Applies the events in batches of `batchSize` (default: all at once). */
        async given(events: readonly RecordedEvent[], batchSize = events.length) {
          for (let i = 0; i < events.length; i += Math.max(batchSize, 1)) await inSchema((trx) => applyOwn(trx, projection, events.slice(i, i + batchSize)));
        },
        /**
         * As a rebuild stages them, not settled yet (`replayed` settles): written to the log
         * (which holds only events given here), staged set-wise in ranges of `rangeSize` events.
         * The events come in the order `event` made them, after those of any earlier call.
         */
        async staged(events: readonly RecordedEvent[], rangeSize = events.length): Promise<SqlLog> {
          const positions = events.map((e) => e.position.globalPosition);
          if (positions.some((p, i) => i > 0 && p <= positions[i - 1]!)) throw new Error('staged() takes events in the order they were made');
          const log = (await logged(events)).sql!;
          const at = (pos: bigint): LogPosition => ({ transactionId: pos, globalPosition: pos });
          const until = at(positions.at(-1)!);
          const after = await stageUntil(log, projection, { after: at(positions[0]! - 1n), until, rangeSize }, inSchema);
          if (after.globalPosition !== until.globalPosition) throw new Error(`staging stopped at ${after.globalPosition}, before ${until.globalPosition}`);
          return log;
        },
        /**
         * As a rebuild replays them: staged (see `staged`), then settled. `beforeSettle` runs in
         * the schema between the two (to leave the build as an interrupted one would be).
         */
        async replayed(events: readonly RecordedEvent[], rangeSize = events.length, beforeSettle?: (trx: Knex.Transaction) => Promise<void>) {
          const log = await this.staged(events, rangeSize);
          if (beforeSettle) await inSchema(beforeSettle);
          await inSchema((trx) => settleReplay(trx, projection, log));
          // a staged replay may set indexes aside while it stages: settled, the tables have them all again
          const settled = await indexNames();
          if (settled.join() !== indexed.join()) throw new Error(`indexes after settling: ${settled.join(', ')}; before staging: ${indexed.join(', ')}`);
        },
        async rows<T>(sql: string, bindings: readonly Knex.RawBinding[] = []): Promise<T[]> {
          return inSchema(async (trx) => (await trx.raw<{ rows: T[] }>(sql, bindings as Knex.RawBinding[])).rows);
        },
        /** A table's whole rows as JSON text, in order: what two replays of one log compare. */
        async tableRows(table: string): Promise<string[]> {
          return (await this.rows<{ row: string }>('SELECT to_jsonb(t)::text AS row FROM ?? t ORDER BY 1', [table])).map((r) => r.row);
        },
      };
    },
    /**
     * An event as the store hands it to readers: written at `schemaVersion`
     * (default: the type's current version; give an older one for data as an
     * older build stored it) and upcast on read, as the store adapter does.
     */
    event<Data>(type: string, data: Data, streamId = 'test', schemaVersion = currentSchemaVersion(type) ?? 1): RecordedEvent<string, Data> {
      position += 1n;
      return upcast({
        streamId,
        streamVersion: 1,
        type,
        data,
        metadata: testEventMetadata({ schemaVersion }),
        position: { transactionId: position, globalPosition: position },
        recordedAt: new Date(),
      });
    },
    /**
     * The events applied as the live build does (in batches of `batchSize`) and replayed as a
     * rebuild does (in ranges of `batchSize`), each into a fresh schema; `tables` must come out the
     * same. Answers both, for the test to look at.
     */
    async liveAndReplayed(projection: Projection, log: readonly RecordedEvent[], batchSize: number, tables: readonly string[]) {
      const ordinary = await this.fresh(projection);
      await ordinary.given(log, batchSize);
      const rebuilt = await this.fresh(projection);
      await rebuilt.replayed(log, batchSize);
      for (const table of tables) expect(await rebuilt.tableRows(table), table).toEqual(await ordinary.tableRows(table));
      return { ordinary, rebuilt };
    },
    async stop() {
      await (await store)?.close();
      await db.destroy();
      await database.drop();
    },
  };
}
