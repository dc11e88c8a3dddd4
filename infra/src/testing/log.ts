import { setTimeout } from 'node:timers/promises';
import { START } from '@forum/contracts';
import type { EventStore, RecordedEvent } from '@forum/eventstore';

/**
 * The log's first `total` events in log order, all committed. A reader sees the log only below
 * the server's oldest running transaction, which another test file's may hold back for a moment
 * (tests share one PostgreSQL server): an empty read is a wait, not the end.
 */
export async function readCommittedLog(store: EventStore, total: number, timeoutMs = 30_000): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  const log: RecordedEvent[] = [];
  for (let after = START; log.length < total;) {
    const batch = await store.readAll(after, 1000);
    if (batch.length === 0) {
      if (Date.now() > deadline) throw new Error(`read ${log.length} of ${total} events before the horizon stopped moving`);
      await setTimeout(20);
      continue;
    }
    log.push(...batch);
    after = batch.at(-1)!.position;
  }
  return log;
}
