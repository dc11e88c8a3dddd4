import { createReadKnex, prepared, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@forum/platform/testing';

/**
 * The read side's hottest reads and the projections' batch statements are prepared statements:
 * parsed and planned once per connection. A read model switched in under the same view name must
 * not break them, even when its columns change type (a prepared statement's result may not change
 * shape in PostgreSQL), and one text run in two build schemas is two statements.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('prepared_reads');
  // one connection: every statement below runs on it, as a busy pool's connection would
  db = createReadKnex(database.url, { max: 1, statementTimeoutMs: 3000 });
  await db.raw(`CREATE SCHEMA b1; CREATE SCHEMA b2; CREATE SCHEMA view_of;
    CREATE TABLE b1.items (id integer PRIMARY KEY, score integer NOT NULL); INSERT INTO b1.items VALUES (1, 10), (2, 20);
    CREATE TABLE b2.items (id integer PRIMARY KEY, score numeric NOT NULL); INSERT INTO b2.items VALUES (1, 10.5), (2, 20.5);
    CREATE VIEW view_of.items AS SELECT id, score FROM b1.items`);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const READ = 'SELECT id, score FROM view_of.items WHERE id = ?';
const items = async (id: number) => (await prepared<{ rows: { id: number; score: number | string }[] }>(db, READ, [id])).rows;
const preparedNames = async () => (await db.raw<{ rows: { name: string; statement: string }[] }>('SELECT name, statement FROM pg_prepared_statements')).rows;

describe('prepared reads', () => {
  it('are prepared once on a connection and run by name after', async () => {
    expect(await items(1)).toEqual([{ id: 1, score: 10 }]);
    expect(await items(2)).toEqual([{ id: 2, score: 20 }]);
    const names = await preparedNames();
    expect(names).toHaveLength(1);
    expect(names[0]!.name).toMatch(/^forum_[0-9a-f]{24}$/);
    expect(names[0]!.statement).toContain('FROM view_of.items');
  });

  it('follow a view switched to a build with the same columns, and one whose columns changed type', async () => {
    await db.raw('CREATE OR REPLACE VIEW view_of.items AS SELECT id, score FROM b1.items WHERE score > 10');
    expect(await items(1)).toEqual([]);
    expect(await items(2)).toEqual([{ id: 2, score: 20 }]);
    // a rebuild switched in whose score is numeric: the statement's result changes type
    await db.raw('DROP VIEW view_of.items; CREATE VIEW view_of.items AS SELECT id, score FROM b2.items');
    expect(await items(1)).toEqual([{ id: 1, score: '10.5' }]);
    expect(await items(2)).toEqual([{ id: 2, score: '20.5' }]);
    expect(await preparedNames()).toHaveLength(1);
  });

  it("keep one text's statements apart by scope: each build schema's on its own tables, named by the search_path", async () => {
    const SCORE = 'SELECT score FROM items WHERE id = ?';
    const inSchema = (schema: string) =>
      db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL search_path TO ${schema}`);
        return (await prepared<{ rows: { score: unknown }[] }>(trx, SCORE, [2], schema)).rows;
      });
    expect(await inSchema('b1')).toEqual([{ score: 20 }]);
    expect(await inSchema('b2')).toEqual([{ score: '20.5' }]);
    expect(await inSchema('b1')).toEqual([{ score: 20 }]);
    expect((await preparedNames()).filter((statement) => statement.statement.includes('FROM items'))).toHaveLength(2);
  });

  it('take values, never a query bound in (it would change the text under one name)', () => {
    expect(() => prepared(db, 'SELECT * FROM ? q', [db.raw('SELECT 1')])).toThrow('a prepared statement takes values, not queries');
  });
});
