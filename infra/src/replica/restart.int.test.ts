import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '@forum/platform/embedded-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplica, type RunningReplica } from './replica.ts';

/**
 * A standby outlives its processes: stopped while the primary goes on writing, and the primary
 * started again on another port, the standby started again is not made anew (no second base
 * backup) but pointed at the primary's new address, and catches up from its slot.
 */
let dataDir: string;
const running: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-replica-restart-'));
  // as root, PostgreSQL runs as the 'postgres' user, which must be able to pass through the folder
  await chmod(dataDir, 0o755);
});
afterAll(async () => {
  for (const server of running.reverse()) await server.stop().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

const primaryIn = async () => {
  const primary = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'primary'),
    database: 'forum',
    fast: true,
    sharedBuffers: '128MB',
    settings: { synchronous_commit: 'on' },
  });
  running.push(primary);
  return primary;
};
const replicaOf = async (primary: RunningPostgres, log: string[]) => {
  const replica = await startReplica({ primaryUrl: primary.url, dataDir: path.join(dataDir, 'replica'), log: (line) => log.push(line) });
  running.push(replica);
  return replica;
};

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Until the replica has the rows 1..n (polled every 20 ms, at most 15 s); before it has replayed the table's creation, it has none. */
async function replicaHas(replica: RunningReplica, n: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const count = await query<{ n: number }>(replica.url, 'SELECT count(*)::int AS n FROM kept').then(
      ([row]) => row!.n,
      (error: { code?: string }) => {
        if (error.code === '42P01') return 0; // undefined_table
        throw error;
      },
    );
    if (count === n) return;
    if (Date.now() > deadline) throw new Error(`the replica has ${count} rows of ${n} after 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a replica started again', () => {
  // two primaries, a base backup and two standbys started: about 10 s on a quiet machine, 30 s and more on a loaded one
  it(
    'catches up what the primary wrote while it was stopped, from the primary at its new address, without a new base backup',
    { timeout: 120_000 },
    async () => {
      const first = await primaryIn();
      const made: string[] = [];
      const replica = await replicaOf(first, made);
      await query(first.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
      await replicaHas(replica, 1);
      expect(made.filter((line) => line.includes('starting backup recovery'))).toHaveLength(1);

      await replica.stop();
      await query(first.url, 'INSERT INTO kept VALUES (2)');
      await first.stop();
      const second = await primaryIn();
      expect(second.port).not.toBe(first.port);
      await query(second.url, 'INSERT INTO kept VALUES (3)');

      const restarted: string[] = [];
      const again = await replicaOf(second, restarted);
      await replicaHas(again, 3);
      // a standby made anew would start from a backup_label again
      expect(restarted.filter((line) => line.includes('starting backup recovery'))).toEqual([]);
      const [slot] = await query<{ active: boolean }>(second.url, "SELECT active FROM pg_replication_slots WHERE slot_name = 'forum_replica'");
      expect(slot).toEqual({ active: true });
    },
  );
});
