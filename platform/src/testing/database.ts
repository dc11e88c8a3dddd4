import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgUrlTemplate: string;
  }
}

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
