import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { startEmbeddedPostgres } from '../embedded/postgres.ts';

/**
 * The run's PostgreSQL: what vitest's global setup provides, or, for a script run outside vitest
 * (e2e/screenshots.ts), FORUM_TEST_PG_ADMIN_URL and FORUM_TEST_PG_URL_TEMPLATE ('__DB__' for the name).
 */
function provided(key: 'pgAdminUrl' | 'pgUrlTemplate'): string {
  const fromEnv = process.env[key === 'pgAdminUrl' ? 'FORUM_TEST_PG_ADMIN_URL' : 'FORUM_TEST_PG_URL_TEMPLATE'];
  return fromEnv || inject(key);
}

/** A fresh, empty database on the run's PostgreSQL, dropped by `drop()`. */
export async function createTestDatabase(prefix = 't'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: provided('pgAdminUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: provided('pgUrlTemplate').replace('__DB__', name),
    async drop() {
      const client = new pg.Client({ connectionString: provided('pgAdminUrl') });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

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
