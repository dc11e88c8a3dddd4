import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { recordStatement } from './logger.ts';

export type { Knex };

// int8 and numeric stay strings in pg by default; counts and positions here fit in a double
// except global positions, which are read as text where exactness matters.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function createKnex(url: string, pool: { min?: number; max?: number } = {}): Knex {
  return withStatementsOnErrors(
    knexFactory({
      client: 'pg',
      connection: { connectionString: url, application_name: 'forum' },
      pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
      // the statement of a failed query goes into its message as written, never with its values
      compileSqlOnError: false,
    }),
  );
}

/** `db`, its failed queries' errors carrying their statement (see recordStatement). */
export function withStatementsOnErrors(db: Knex): Knex {
  db.on('query-error', (error: unknown, query: { sql?: unknown }) => recordStatement(error, query?.sql));
  return db;
}

export async function databaseCheck(db: Knex) {
  await db.raw('select 1');
  return { ok: true };
}
