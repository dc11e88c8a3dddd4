import type { Projection } from '../projection.ts';

/**
 * A deliberately non-idempotent projection: every event it applies adds a row
 * and bumps a counter, so an event applied twice shows up as a duplicate row.
 */
export function countingProjection(options: { name?: string; onEvent?: (globalPosition: bigint) => void } = {}): Projection {
  return {
    name: options.name ?? 'counting',
    version: 1,
    exposes: {},
    async migrate(trx) {
      await trx.raw(`
        CREATE TABLE IF NOT EXISTS applied (pos bigint NOT NULL, stream_id text NOT NULL, stream_version integer NOT NULL);
        CREATE TABLE IF NOT EXISTS total (id integer PRIMARY KEY, value bigint NOT NULL);
        INSERT INTO total VALUES (1, 0) ON CONFLICT DO NOTHING;
      `);
    },
    async apply(trx, events) {
      for (const event of events) {
        await trx.raw('INSERT INTO applied (pos, stream_id, stream_version) VALUES (?, ?, ?)', [
          event.position.globalPosition.toString(),
          event.streamId,
          event.streamVersion,
        ]);
        await trx.raw('UPDATE total SET value = value + 1 WHERE id = 1');
        options.onEvent?.(event.position.globalPosition);
      }
    },
  };
}
