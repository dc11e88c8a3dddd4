import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { ErrorCode } from '@forum/contracts';
import type { RequestHook } from './request-hook.ts';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, endsWhenAStatementTimesOut, knexLog, withStatementsOnErrors } from './db.ts';
import type { Logger } from './logger.ts';
import { AppError } from './errors.ts';

/**
 * The read side's database: every statement runs under a time limit, and a statement run on
 * behalf of a request is cancelled when that request's client goes away (see `withRequestSignal`).
 * A read that would otherwise run on after its caller gave up holds a pooled connection and a
 * core of PostgreSQL's for nothing; enough of them stop every other read.
 */
export interface ReadDbOptions {
  /** Pool size. */
  readonly max: number;
  /** PostgreSQL's statement_timeout for every statement of the pool, in milliseconds. */
  readonly statementTimeoutMs: number;
  /** Where knex's own lines go (a lost connection, a failed acquire); without it, the console. */
  readonly logger?: Logger;
}

const requestSignals = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` (and everything it starts) on behalf of a request: the read statements it runs are cancelled when `signal` aborts. */
export function withRequestSignal<T>(signal: AbortSignal, fn: () => T): T {
  return requestSignals.run(signal, fn);
}

/** Runs `fn` on behalf of the request `res` answers: its read statements are cancelled when the client goes away before the answer is sent. */
export function cancelledIfClientLeaves<T>(res: ServerResponse, fn: () => T): T {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return withRequestSignal(controller.signal, fn);
}

/**
 * Fastify's hook (onRequest, or any later one): the request's read statements are cancelled when
 * its client goes away before the answer is sent. What follows the hook runs inside it, the body's
 * parsing included (Fastify carries the context across it).
 */
export const cancelWhenClientLeavesHook: RequestHook = (_request, reply, done) => cancelledIfClientLeaves(reply.raw, done);

/** PostgreSQL's query_canceled: a statement timeout or a cancel request. */
const QUERY_CANCELED = '57014';

/** A read that ran out of time (or whose caller left): 503, try again. */
export class ReadTimeoutError extends AppError {
  constructor() {
    super(ErrorCode.READ_TIMEOUT, 'This took too long to answer. Please try again.');
  }
}

/** Whether `error` is PostgreSQL refusing to go on with a statement (statement_timeout, or a cancel). */
export const isQueryCanceled = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === QUERY_CANCELED;

type QueryCallback = (error: Error | null, result?: unknown) => void;

export function createReadKnex(url: string, options: ReadDbOptions): Knex {
  // a cancel goes through a connection of its own (the pool may be what is full); cancels are rare
  const cancel = async (pid: number) => {
    const client = new pg.Client({ connectionString: url, application_name: 'forum-read-cancel' });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } finally {
      await client.end().catch(() => {});
    }
  };
  return withStatementsOnErrors(
    knexFactory({
      client: 'pg',
      // a stalled server enforces no statement_timeout: the client gives up a second later, and waits as long for a connection
      connection: {
        connectionString: url,
        application_name: 'forum-read',
        statement_timeout: options.statementTimeoutMs,
        query_timeout: options.statementTimeoutMs + 1_000,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      },
      acquireConnectionTimeout: options.statementTimeoutMs + 1_000,
      pool: {
        min: 0,
        max: options.max,
        afterCreate(connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void) {
          replansWhenResultChanges(connection);
          cancellable(connection, cancel);
          endsWhenAStatementTimesOut(connection);
          done(null, connection);
        },
      },
      compileSqlOnError: false,
      ...(options.logger && { log: knexLog(options.logger.child({ library: 'knex' })) }),
    }),
  );
}

/** PostgreSQL's feature_not_supported: "cached plan must not change result type". */
const PLAN_CHANGED_RESULT = '0A000';

/**
 * A prepared statement whose result type changed (a read model switched in with other column
 * types) fails on every run on its connection: deallocate it and run it once more, prepared anew.
 */
function replansWhenResultChanges(connection: pg.Client) {
  const original = connection.query.bind(connection) as unknown as (...args: unknown[]) => unknown;
  (connection as unknown as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const [config, callback] = args as [{ name?: string } | undefined, unknown];
    if (args.length !== 2 || typeof callback !== 'function' || !config?.name) return original(...args);
    const done = callback as QueryCallback;
    const name = config.name;
    return original(config, (error: (Error & { code?: string }) | null, result?: unknown) => {
      if (error?.code !== PLAN_CHANGED_RESULT) return done(error, result);
      original({ text: `DEALLOCATE "${name}"` }, () => {
        delete (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
        original(config, done);
      });
    });
  };
}

/**
 * Makes a connection's statements follow the request they run for: an abort sends PostgreSQL a
 * cancel for the connection's backend, and the statement's answer waits for that cancel to be
 * done, so the connection goes back to the pool (and on to another request) only once no cancel
 * for it is on its way.
 */
function cancellable(connection: pg.Client, cancel: (pid: number) => Promise<void>) {
  const original = connection.query.bind(connection) as unknown as (...args: unknown[]) => unknown;
  (connection as unknown as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const signal = requestSignals.getStore();
    const callback = args[1];
    // knex's statements: (config, callback); anything else (promises, streams) as it was
    if (!signal || args.length !== 2 || typeof callback !== 'function') return original(...args);
    const done = callback as QueryCallback;
    if (signal.aborted) {
      process.nextTick(() => done(Object.assign(new Error('canceling statement due to user request: the client went away'), { code: QUERY_CANCELED })));
      return undefined;
    }
    let cancelling: Promise<void> | null = null;
    const onAbort = () => {
      cancelling = cancel((this as unknown as { processID: number }).processID).catch(() => {});
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return original(args[0], (error: Error | null, result?: unknown) => {
      signal.removeEventListener('abort', onAbort);
      if (cancelling) void cancelling.then(() => done(error, result));
      else done(error, result);
    });
  };
}
