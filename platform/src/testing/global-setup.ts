import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// the keys it provides (pgAdminUrl, pgUrlTemplate) are declared beside their reader, createTestDatabase
import type {} from './database.ts';
import { startEmbeddedPostgres } from '../embedded-postgres.ts';

/** One real PostgreSQL for the whole run, in a temporary folder on a free port. */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-test-pg-'));
  const server = await startEmbeddedPostgres({ dataDir, database: 'postgres', fast: true });
  project.provide('pgAdminUrl', server.urlFor('postgres'));
  project.provide('pgUrlTemplate', server.urlFor('__DB__'));
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
