import { START, type EventMetadata } from '@forum/contracts';
import type { KurrentDbEventStore, StoredEvent } from '@forum/eventstore-kurrentdb';
import type { LoggedEvent } from './log-file.ts';

/**
 * `forumctl export` and `import` when the log is in KurrentDB (EVENTSTORE_URL), in the NDJSON form
 * of log-file.ts, so a forum moves between the two stores: export from one, import into the other.
 *
 * KurrentDB's positions are byte offsets of its own log: an export from it numbers the events 1, 2,
 * 3… in log order instead (what `--from`/`--to` count, and what a PostgreSQL import keeps as global
 * positions). An import into KurrentDB keeps streams, versions, types, data, metadata and times (in
 * the event's metadata, to the millisecond); KurrentDB gives the positions. The read models of the
 * target database are built by the projections from the imported log, as after any import.
 */

const PAGE = 1000;

export async function exportKurrentDbEvents(
  store: KurrentDbEventStore,
  write: (line: string) => Promise<void> | void,
  range: { from?: bigint; to?: bigint } = {},
): Promise<number> {
  const from = range.from ?? 0n;
  const to = range.to ?? BigInt(Number.MAX_SAFE_INTEGER);
  let after = START;
  let ordinal = 0n;
  let count = 0;
  for (;;) {
    const page = await store.exportPage(after, PAGE);
    for (const { event } of page) {
      ordinal++;
      if (ordinal < from || ordinal > to) continue;
      const line: LoggedEvent = { position: Number(ordinal), ...event, recordedAt: event.recordedAt.toISOString() };
      await write(`${JSON.stringify(line)}\n`);
      count++;
    }
    if (page.length < PAGE || ordinal >= to) return count;
    after = page.at(-1)!.position;
  }
}

/** Loads an export into an EMPTY KurrentDB log, in the export's order. */
export async function importKurrentDbEvents(store: KurrentDbEventStore, openLines: () => AsyncIterable<string>): Promise<number> {
  if ((await store.head()).globalPosition !== START.globalPosition) throw new Error('The event store is not empty: import only loads into an empty store');
  let batch: StoredEvent[] = [];
  let count = 0;
  const flush = async () => {
    await store.importEvents(batch);
    count += batch.length;
    batch = [];
  };
  for await (const line of openLines()) {
    if (line.trim() === '') continue;
    const logged = JSON.parse(line) as LoggedEvent;
    batch.push({
      streamId: logged.streamId,
      streamVersion: logged.streamVersion,
      type: logged.type,
      data: logged.data,
      metadata: logged.metadata as EventMetadata,
      recordedAt: new Date(logged.recordedAt),
    });
    if (batch.length >= PAGE) await flush();
  }
  await flush();
  return count;
}
