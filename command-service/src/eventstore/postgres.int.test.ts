import { createTestDatabase } from '@forum/infra/testing';
import { eventStoreContract } from './contract.suite.ts';
import { createPostgresEventStore } from './postgres.ts';

const database = await createTestDatabase('es');

eventStoreContract('PostgreSQL', {
  supportsCommitHook: true,
  create: (options) => createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 10_000, poolSize: 12, ...options }),
  dispose: () => database.drop(),
});
