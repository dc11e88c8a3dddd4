import { ErrorCode } from '@forum/contracts';
import { cancelWhenClientLeavesHook, createHttpServer, createLogger, createReadKnex, type HttpServer, type Knex } from '@forum/platform';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor } from '@forum/platform/testing';

/**
 * The read side's statements have a time limit, and a request whose client has gone away cancels
 * its statement: over a real HTTP server and PostgreSQL, with the read pool the query-service uses
 * and the middleware it mounts. `SELECT pg_sleep(s)` stands in for a slow read.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let observer: pg.Client;
const servers: { server: HttpServer; db: Knex }[] = [];

beforeAll(async () => {
  database = await createTestDatabase('read_limits');
  observer = new pg.Client({ connectionString: database.url });
  await observer.connect();
});
afterAll(async () => {
  for (const { server, db } of servers) {
    await server.close();
    await db.destroy();
  }
  await observer?.end();
  await database?.drop();
});

/** An app with one slow read (`/sleep?s=`) and one quick one (`/quick`), over a read pool of `max` connections. */
async function serve(options: { max: number; statementTimeoutMs: number }) {
  const db = createReadKnex(database.url, options);
  const server = createHttpServer({ logger: createLogger('read-limits-test', 'silent') });
  server.addHook('onRequest', cancelWhenClientLeavesHook);
  server.get('/sleep', async (request) => {
    await db.raw('SELECT pg_sleep(?)', [Number((request.query as { s: string }).s)]);
    return { slept: true };
  });
  server.get('/quick', async () => {
    const { rows } = await db.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
    return rows[0];
  });
  servers.push({ server, db });
  return server.listen({ port: 0, host: '127.0.0.1' });
}

/** The read pool's statements PostgreSQL is running now. */
const sleeping = async () =>
  (
    await observer.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-read' AND state = 'active' AND query LIKE '%pg_sleep%'`,
    )
  ).rows;

describe('the read pool', () => {
  it('stops a statement at its time limit: 503 READ_TIMEOUT with Retry-After, and the connection serves the next read', async () => {
    const url = await serve({ max: 1, statementTimeoutMs: 300 });
    const started = performance.now();
    const response = await fetch(`${url}/sleep?s=20`);
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('1');
    expect(await response.json()).toEqual({ error: { code: ErrorCode.READ_TIMEOUT, message: 'This took too long to answer. Please try again.' } });
    expect(performance.now() - started).toBeLessThan(10_000); // not the 20 s it asked for
    expect((await fetch(`${url}/quick`)).status).toBe(200);
  });

  it("cancels a request's statement when its client goes away, and hands the connection to the next request", async () => {
    const url = await serve({ max: 1, statementTimeoutMs: 60_000 });
    const { pid } = (await (await fetch(`${url}/quick`)).json()) as { pid: number };
    const client = new AbortController();
    const request = fetch(`${url}/sleep?s=60`, { signal: client.signal }).catch((error: Error) => error);
    await waitFor(sleeping, (rows) => rows.some((row) => row.pid === pid));
    client.abort();
    expect(await request).toBeInstanceOf(Error);
    // PostgreSQL stops it (not after its 60 s), and the pool's one connection answers the next request
    await waitFor(sleeping, (rows) => rows.length === 0);
    const next = await fetch(`${url}/quick`);
    expect(next.status).toBe(200);
    expect(((await next.json()) as { pid: number }).pid).toBe(pid);
  });

  it('leaves a statement whose client stays to finish', async () => {
    const url = await serve({ max: 2, statementTimeoutMs: 60_000 });
    expect(await (await fetch(`${url}/sleep?s=0.2`)).json()).toEqual({ slept: true });
  });
});
