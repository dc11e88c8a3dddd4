import type { RecordedEvent } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import type { Projection } from '../projection.ts';

/**
 * A deliberately non-idempotent projection: every event it applies adds a row
 * and bumps a counter, so an event applied twice shows up as a duplicate row.
 */
export function countingProjection(
  options: {
    name?: string;
    version?: number;
    exposes?: Record<string, string>;
    onEvent?: (globalPosition: bigint) => void | Promise<void>;
    /** A rebuild stages the log's ticks set-wise, the total's increments as facts (`replay_total`) settled at its tail. */
    staged?: boolean;
    /** The event types it counts (default `Tick`, all a tick log holds). */
    types?: readonly string[];
  } = {},
): Projection {
  const insertApplied = async (trx: Knex.Transaction, events: readonly RecordedEvent[]) => {
    await trx.raw('INSERT INTO applied (pos, stream_id, stream_version) SELECT * FROM unnest(?::bigint[], ?::text[], ?::int[])', [
      events.map((e) => e.position.globalPosition.toString()),
      events.map((e) => e.streamId),
      events.map((e) => e.streamVersion),
    ]);
  };
  const projection: Projection = {
    name: options.name ?? 'counting',
    version: options.version ?? 1,
    // the tick logs hold nothing else
    types: options.types ?? ['Tick'],
    exposes: options.exposes ?? {},
    async migrate(trx) {
      await trx.raw(`
        CREATE TABLE IF NOT EXISTS applied (pos bigint NOT NULL, stream_id text NOT NULL, stream_version integer NOT NULL);
        CREATE TABLE IF NOT EXISTS total (id integer PRIMARY KEY, value bigint NOT NULL);
        INSERT INTO total VALUES (1, 0) ON CONFLICT DO NOTHING;
        CREATE TABLE IF NOT EXISTS replay_total (n integer NOT NULL);
      `);
    },
    indexes: { applied: ['CREATE INDEX IF NOT EXISTS applied_stream ON applied (stream_id, stream_version)'] },
    async apply(trx, events) {
      await insertApplied(trx, events);
      await trx.raw('UPDATE total SET value = value + ? WHERE id = 1', [events.length]);
      // after the batch's rows are written, before its transaction commits
      for (const event of events) await options.onEvent?.(event.position.globalPosition);
    },
  };
  if (!options.staged) return projection;
  return {
    ...projection,
    replay: {
      async stage(trx, log) {
        const { rows } = await trx.raw<{ rows: { pos: string }[] }>(
          'INSERT INTO applied (pos, stream_id, stream_version) SELECT pos, stream_id, stream_version FROM ? e ORDER BY pos RETURNING pos',
          [log],
        );
        await trx.raw('INSERT INTO replay_total (n) VALUES (?)', [rows.length]);
        for (const { pos } of rows) await options.onEvent?.(BigInt(pos));
      },
      settle: [
        async (trx) => {
          await trx.raw('UPDATE total SET value = value + (SELECT coalesce(sum(n), 0) FROM replay_total) WHERE id = 1');
          await trx.raw('TRUNCATE replay_total');
        },
      ],
    },
  };
}
