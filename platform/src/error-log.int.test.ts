import { Writable } from 'node:stream';
import { createHttpServer, createKnex, createLogger, createReadKnex, type Knex, type Logger } from '@forum/platform';
import { freePort } from '@forum/platform/embedded-postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, waitFor } from '@forum/platform/testing';

/**
 * An unexpected database error is logged by its PostgreSQL code and its statement without values:
 * knex writes the statement with its values into the error's message, and PostgreSQL quotes the
 * values in its own message and detail, and those values are what a user sent.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let readDb: Knex;

beforeAll(async () => {
  database = await createTestDatabase('error_log');
  db = createKnex(database.url, { max: 2 });
  readDb = createReadKnex(database.url, { max: 2, statementTimeoutMs: 5000 });
  await db.raw('CREATE TABLE names (name text PRIMARY KEY)');
  await db.raw('INSERT INTO names VALUES (?)', ['taken-secret']);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await readDb?.destroy();
  await database?.drop();
});

async function serveFailing(run: (text: string) => Promise<unknown>) {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = createLogger('error-log-test', 'info', {
    destination: new Writable({
      write: (chunk, _encoding, done) => (raw.push(String(chunk)), lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()),
    }),
  });
  const server = createHttpServer({ logger });
  // the text comes in the body: the access log line writes the URL, and with it a query string
  server.post('/fail', async (request) => {
    await run((request.body as { text: string }).text);
  });
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  return { lines, raw, base, close: () => server.close() };
}

describe('the error log of an unexpected database error', () => {
  it.each([
    ['a value PostgreSQL cannot read (its message quotes it)', () => db, 'SELECT ?::int AS n', '22P02'],
    ['a duplicate key (its detail quotes the row)', () => db, 'INSERT INTO names VALUES (?)', '23505'],
    ['the read pool', () => readDb, 'SELECT ?::uuid AS id', '22P02'],
  ])('%s: the code and the statement, without the value', async (_case, pool, sql, code) => {
    const secret = sql.startsWith('INSERT') ? 'taken-secret' : 'user-secret-text';
    const served = await serveFailing((text) => pool().raw(sql, [text]));
    try {
      const answer = await fetch(`${served.base}/fail`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: secret }),
      });
      expect(answer.status).toBe(500);
      expect(JSON.stringify(await answer.json())).not.toContain(secret);
      const line = await waitFor(
        () => served.lines.find((l) => l.msg === 'unhandled error'),
        (l) => l !== undefined,
        5000,
        20,
      );
      expect(line!.err).toMatchObject({ code, statement: sql.replace('?', '$1') });
      expect(served.raw.join('')).not.toContain(secret);
    } finally {
      await served.close();
    }
  });
});

describe("knex's own lines", () => {
  it.each([
    ['the pool', (url: string, logger: Logger) => createKnex(url, { max: 1, logger })],
    ['the read pool', (url: string, logger: Logger) => createReadKnex(url, { max: 1, statementTimeoutMs: 5000, logger })],
  ])('%s: a failed acquire is one line of the forum’s log (JSON, no stack, at warn once every 5 s), not a line on the console', async (_case, make) => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('knex-log-test', 'info', {
      destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }),
    });
    const console = vi.spyOn(globalThis.console, 'log');
    // nothing listens there: every connection is refused
    const unreachable = make(`postgres://forum@127.0.0.1:${await freePort()}/forum`, logger);
    try {
      await expect(unreachable.raw('SELECT 1')).rejects.toThrow();
      await expect(unreachable.raw('SELECT 1')).rejects.toThrow();
      const acquire = lines.filter((line) => String(line.msg).startsWith('Acquire connection error'));
      // two refused connections, one line: the second is said at debug, below this logger's level
      expect(acquire).toHaveLength(1);
      expect(acquire[0]).toMatchObject({ level: 40, library: 'knex' }); // pino's warn
      expect(acquire.every((line) => !String(line.msg).includes('\n'))).toBe(true);
      expect(console).not.toHaveBeenCalled();
    } finally {
      console.mockRestore();
      await unreachable.destroy();
    }
  });
});
