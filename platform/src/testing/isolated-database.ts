import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../embedded-postgres.ts';

/**
 * A database on a PostgreSQL server of its own (a temporary folder, a free port), stopped and
 * removed by `drop()`. For a test that holds a transaction open on purpose: the oldest running
 * transaction is the whole server's readers' horizon, so on the run's shared server it would
 * stall every other test's projections for as long as it runs.
 */
export async function createIsolatedDatabase(prefix = 't'): Promise<{ url: string; drop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `forum-test-${prefix}-`));
  const server = await startEmbeddedPostgres({ dataDir, database: prefix, fast: true });
  return {
    url: server.urlFor(prefix),
    async drop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
