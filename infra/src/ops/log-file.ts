import { unsealed } from '@forum/eventstore';
import type pg from 'pg';

/**
 * The NDJSON form of the event log (`forumctl export` / `import`): one event a
 * line, in global-position order, with its position, stream, version, type,
 * data, metadata and time. The writing transaction's id is not part of it: it
 * belongs to the server that wrote the event, and an import takes its own.
 *
 * Personal data is exported opened, an erased member's as "[erased]": the file
 * holds plain text of everyone else's (keep it as such). An import seals it again
 * under new keys as it writes the events, and an imported `AccountErased` erases
 * its member again, so the imported log reads as the exported one.
 */
const exportSql = (
  sealed: boolean,
) => `SELECT global_position, stream_id, stream_version, type, (${sealed ? 'data' : unsealed('data', "'marked'")})::text AS data,
  metadata::text AS metadata, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at
  FROM eventstore.events WHERE global_position >= $1 AND global_position <= $2 AND global_position > $3 AND ($5::xid8 IS NULL OR transaction_id < $5::xid8)
  ORDER BY global_position LIMIT $4`;

/**
 * Writes the log as NDJSON. `sealed`: personal data as the log stores it, in its sealed boxes (a
 * backup's, which is useless without the keys beside it); `below`: only the events of transactions
 * older than this transaction id (a backup's cut, see backup.ts).
 */
export async function exportEvents(
  client: pg.ClientBase,
  write: (line: string) => Promise<void> | void,
  range: { from?: bigint; to?: bigint } = {},
  options: { sealed?: boolean; below?: string } = {},
): Promise<number> {
  const sql = exportSql(options.sealed ?? false);
  let after = 0n;
  let count = 0;
  for (;;) {
    const { rows } = await client.query<{
      global_position: string;
      stream_id: string;
      stream_version: number;
      type: string;
      data: string;
      metadata: string;
      recorded_at: string;
    }>(sql, [String(range.from ?? 0n), String(range.to ?? 9_223_372_036_854_775_807n), String(after), 5000, options.below ?? null]);
    if (rows.length === 0) return count;
    for (const row of rows) {
      // data and metadata are spliced in as PostgreSQL renders them, so the bytes survive a round trip
      await write(
        `{"position":${row.global_position},"streamId":${JSON.stringify(row.stream_id)},"streamVersion":${row.stream_version},"type":${JSON.stringify(row.type)},"data":${row.data},"metadata":${row.metadata},"recordedAt":"${row.recorded_at}"}\n`,
      );
      count++;
    }
    after = BigInt(rows.at(-1)!.global_position);
  }
}

/** One line of an export. */
export interface LoggedEvent {
  position: number;
  streamId: string;
  streamVersion: number;
  type: string;
  data: unknown;
  metadata: unknown;
  recordedAt: string;
}

/**
 * Loads an export into an EMPTY event store, keeping positions, versions,
 * metadata and times. `openLines` is called only when the store is ready to
 * take them: a readline interface that starts before it is iterated drops lines.
 */
export async function importEvents(client: pg.ClientBase, openLines: () => AsyncIterable<string>): Promise<number> {
  await client.query('BEGIN');
  try {
    const count = await importEventsInTransaction(client, openLines);
    await client.query('COMMIT');
    return count;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** `importEvents` inside the caller's transaction (a restore's, with the keys it loads). */
export async function importEventsInTransaction(client: pg.ClientBase, openLines: () => AsyncIterable<string>): Promise<number> {
  const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM eventstore.events) AS any');
  if (rows[0]!.any) throw new Error('The event store is not empty: import only loads into an empty store');
  let batch: LoggedEvent[] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await client.query(
      `INSERT INTO eventstore.events (global_position, stream_id, stream_version, type, data, metadata, recorded_at)
       OVERRIDING SYSTEM VALUE
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::jsonb[], $6::jsonb[], $7::timestamptz[])`,
      [
        batch.map((e) => e.position),
        batch.map((e) => e.streamId),
        batch.map((e) => e.streamVersion),
        batch.map((e) => e.type),
        batch.map((e) => JSON.stringify(e.data)),
        batch.map((e) => JSON.stringify(e.metadata)),
        batch.map((e) => e.recordedAt),
      ],
    );
    count += batch.length;
    batch = [];
  };
  for await (const line of openLines()) {
    if (line.trim() === '') continue;
    batch.push(JSON.parse(line) as LoggedEvent);
    if (batch.length >= 5000) await flush();
  }
  await flush();
  await client.query(`INSERT INTO eventstore.streams (stream_id, version) SELECT stream_id, max(stream_version) FROM eventstore.events GROUP BY stream_id`);
  await client.query(
    `SELECT setval(pg_get_serial_sequence('eventstore.events', 'global_position'), GREATEST((SELECT max(global_position) FROM eventstore.events), 1))`,
  );
  return count;
}
