import type { RecordedEvent } from '@forum/command-service/eventstore';
import { currentSchemaVersion, upcast } from '@forum/contracts';
import { createTestDatabase } from '@forum/infra/testing';
import { createKnex, type Knex } from '@forum/platform';
import { replayApply, settleReplay, type Projection } from '../runner/projection.ts';

/**
 * A projection on its own, in a scratch schema of a fresh database: given
 * events (applied in batches as the runner would), then read its tables.
 */
export async function projectionHarness(prefix: string) {
  const database = await createTestDatabase(prefix);
  const db = createKnex(database.url);
  let schemas = 0;
  let position = 0n;

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
      await inSchema(async (trx) => projection.indexes?.(trx));
      return {
        schema,
        inSchema,
        /** Applies the events in batches of `batchSize` (default: all at once). */
        async given(events: readonly RecordedEvent[], batchSize = events.length) {
          for (let i = 0; i < events.length; i += Math.max(batchSize, 1)) await inSchema((trx) => projection.apply(trx, events.slice(i, i + batchSize)));
        },
        /** As a rebuild replays them: the projection's staged replay in batches of `batchSize`, then settled. */
        async replayed(events: readonly RecordedEvent[], batchSize = events.length) {
          const apply = replayApply(projection);
          for (let i = 0; i < events.length; i += Math.max(batchSize, 1)) await inSchema((trx) => apply(trx, events.slice(i, i + batchSize)));
          await inSchema((trx) => settleReplay(trx, projection));
        },
        async rows<T>(sql: string, bindings: readonly Knex.RawBinding[] = []): Promise<T[]> {
          return inSchema(async (trx) => (await trx.raw<{ rows: T[] }>(sql, bindings as Knex.RawBinding[])).rows);
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
        metadata: { actorId: 'test', correlationId: 'c', causationId: null, requestId: null, schemaVersion },
        position: { transactionId: position, globalPosition: position },
        recordedAt: new Date(),
      });
    },
    async stop() {
      await db.destroy();
      await database.drop();
    },
  };
}
