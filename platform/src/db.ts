import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { QUERY_READ_TIMEOUT } from './database-unavailable.ts';
import { recordStatement, type Logger } from './logger.ts';

export type { Knex };

// int8 and numeric stay strings in pg by default; counts and positions here fit in a double
// except global positions, which are read as text where exactness matters.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** How long a new connection to PostgreSQL may take before the attempt fails (a stalled or unreachable server answers 503 rather than hangs). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long a statement on a request's way may wait for PostgreSQL's answer before the client gives
 * up on it (pg's query_timeout): a stalled server does not enforce its own statement_timeout. Far
 * above any such statement's time under load; migrations and projections run without it.
 */
export const REQUEST_QUERY_TIMEOUT_MS = 10_000;

/**
 * How long a transaction on a command's way may sit idle between its statements before PostgreSQL
 * ends its session (idle_in_transaction_session_timeout). A command's process that stops inside one
 * (SIGSTOP, a hung event loop) would otherwise hold back every reader of the log, which reads only
 * below the oldest open transaction. Far above what a command does inside its transaction between
 * statements: taking a write-limit point (at most CONNECT_TIMEOUT_MS + QUICK_QUERY_TIMEOUT_MS).
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 15_000;

/**
 * The same for statements small by nature on every request's way (a write limit's count, the
 * readiness check's `select 1`): stages of one request add up, and these must not take its time.
 */
export const QUICK_QUERY_TIMEOUT_MS = 2_000;

/**
 * A pg pool that outlives its database's failures: a session cut while its client is checked out
 * (a killed server, a terminated backend) is not an unhandled 'error' event (pg-pool listens only
 * to idle clients), and the client goes on release (it is no longer queryable); connecting gives up
 * after CONNECT_TIMEOUT_MS. `query_timeout` (e.g. REQUEST_QUERY_TIMEOUT_MS) bounds every statement's wait.
 */
export function createPgPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, ...config });
  pool.on('error', () => {}); // an idle client's error surfaces on its next use
  pool.on('connect', (client) => client.on('error', () => {})); // a checked-out one's, on its next query
  return pool;
}

/**
 * A knex on `url`. `queryTimeoutMs`: for a pool on requests' way (the write limits), how long a
 * statement is waited for (REQUEST_QUERY_TIMEOUT_MS), after at most CONNECT_TIMEOUT_MS for a
 * connection: a stalled server then answers 503, not a hang. Without it (the projections,
 * migrations) a statement takes what it takes. `logger`: where knex's own lines go (a lost
 * connection, a failed acquire), one line each; without it, to the console as knex writes them.
 */
export function createKnex(url: string, pool: { min?: number; max?: number; queryTimeoutMs?: number; logger?: Logger } = {}): Knex {
  const timeout = pool.queryTimeoutMs;
  return withStatementsOnErrors(
    knexFactory({
      client: 'pg',
      connection: {
        connectionString: url,
        application_name: 'forum',
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        ...(timeout !== undefined && { query_timeout: timeout }),
      },
      pool: {
        min: pool.min ?? 0,
        max: pool.max ?? 10,
        ...(timeout !== undefined && {
          afterCreate(connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void) {
            endsWhenAStatementTimesOut(connection);
            done(null, connection);
          },
        }),
      },
      // a request waits at most this for a connection, then at most `timeout` for its statement
      ...(timeout !== undefined && { acquireConnectionTimeout: CONNECT_TIMEOUT_MS }),
      // the statement of a failed query goes into its message as written, never with its values
      compileSqlOnError: false,
      ...(pool.logger && { log: knexLog(pool.logger.child({ library: 'knex' })) }),
    }),
  );
}

/** Each kind of knex's warnings (its words before the first colon: `Acquire connection error`) is said at warn at most this often. */
const KNEX_WARN_INTERVAL_MS = 5_000;

/**
 * knex's lines in the forum's log: their first line (an acquire error comes with its stack). While
 * the database is away knex warns for every connection it fails to make; each kind of warning is said
 * at warn once every KNEX_WARN_INTERVAL_MS, the others at debug.
 */
export function knexLog(logger: Logger): Knex.Config['log'] {
  const firstLine = (message: unknown) => String(message).split('\n', 1)[0]!;
  const saidAt = new Map<string, number>();
  return {
    warn: (message: unknown) => {
      const line = firstLine(message);
      const kind = line.split(':', 1)[0]!;
      if (Date.now() - (saidAt.get(kind) ?? 0) < KNEX_WARN_INTERVAL_MS) return logger.debug(line);
      saidAt.set(kind, Date.now());
      logger.warn(line);
    },
    error: (message: unknown) => logger.error(firstLine(message)),
    deprecate: (method: unknown, alternative: unknown) => logger.warn(`knex: ${String(method)} is deprecated; use ${String(alternative)}`),
    debug: (message: unknown) => logger.debug(firstLine(message)),
  };
}

const isReadTimeout = (error: unknown) => (error as { message?: unknown } | null)?.message === QUERY_READ_TIMEOUT;

/**
 * A connection whose statement timed out is ended: its server still owes that statement's answer,
 * and every statement queued behind it would wait for it (each for its own query_timeout) if the
 * pool lent the connection again. Ended, knex drops it (`__knex__disposed`) and its queue fails at once.
 */
export function endsWhenAStatementTimesOut(connection: pg.Client): void {
  const original = connection.query.bind(connection) as unknown as (...args: unknown[]) => unknown;
  const ended = (error: unknown) => {
    if (isReadTimeout(error)) void connection.end().catch(() => {});
  };
  (connection as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        ended(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return original(...args);
    }
    const answer = original(...args);
    if (answer instanceof Promise) answer.catch(ended);
    return answer;
  };
}

/** A prepared statement's name: the same text (and scope), the same name (a hash of them; names are per connection). */
const statementNames = new Map<string, string>();
function statementName(key: string): string {
  let name = statementNames.get(key);
  if (name === undefined) statementNames.set(key, (name = `forum_${createHash('sha1').update(key).digest('hex').slice(0, 24)}`));
  return name;
}

/**
 * A statement run most, prepared once per connection and run by name after: PostgreSQL parses
 * and plans it once per connection instead of at every call, and after five calls keeps one
 * generic plan. Planning is most of a small read's cost (1.6 to 3.7 ms of the home page's 2.2 to
 * 4.7 ms at 1M events) and as much as running a projection's batch statement. Only for a fixed
 * text whose best plan does not hang on the values bound (rows from a jsonb parameter, a key looked
 * up) and that names its columns: on the read side's connections a statement whose result would
 * change shape (a rebuilt read model with other column types) is prepared again (read-db.ts).
 * `scope` keeps apart the same text run against other tables: a build's schema, where the
 * search_path names its tables.
 */
export function prepared<Result = unknown>(db: Knex | Knex.Transaction, sql: string, bindings: readonly Knex.RawBinding[], scope = ''): Knex.Raw<Result> {
  // a query bound in is written into the text, which would then differ from call to call under one name
  if (bindings.some((binding) => typeof (binding as { toSQL?: unknown } | null)?.toSQL === 'function'))
    throw new Error('a prepared statement takes values, not queries');
  return db.raw<Result>(sql, bindings as Knex.RawBinding[]).options({ name: statementName(scope === '' ? sql : `${scope}\u0000${sql}`) });
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
