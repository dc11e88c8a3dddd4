import { START } from '@forum/contracts';
import type { EventStore, RecordedEvent } from '@forum/eventstore';
import {
  applyOwn,
  createReadIndexes,
  DEFERRED_SETTING,
  pageThroughBlocks,
  postsProjection,
  REPLAY_SETTINGS,
  settleReplay,
  stageUntil,
  type PostList,
} from '@forum/projections';
import type { Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticFixture, type SyntheticFixture } from './synthetic-fixture.ts';

/**
 * Any page through the posts projection's page anchors is the page OFFSET gives: a property over
 * a generated log (posts, votes that move posts in 'popular', deletions), applied in batches of
 * random sizes with blocks of 4 posts so that blocks split and empty all the time, checked at
 * several points of the log, for every page of 'newest', 'popular' and each tag.
 */
const PAGE = 5;
const COLUMNS = 'id, title, created_at, up_vote, down_vote';
let fixture: SyntheticFixture;
let db: Knex;
let store: EventStore;
let log: readonly RecordedEvent[];

beforeAll(async () => {
  fixture = await syntheticFixture('page_anchors', { events: 6_000, seed: 23 });
  ({ db, store, log } = fixture);
}, 120_000);
afterAll(() => fixture?.close());

let schemas = 0;
async function newSchema(block: number) {
  const schema = `anchors_${++schemas}`;
  const inSchema = <T>(work: (trx: Knex.Transaction) => Promise<T>, settings: string[] = []) =>
    db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
      for (const setting of settings) await trx.raw(setting);
      return work(trx);
    });
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await inSchema(async (trx) => {
    await postsProjection.migrate(trx);
    await trx.raw('UPDATE page_settings SET block = ?', [block]);
  });
  return { schema, inSchema };
}

/** Every page of `list` through the anchors and with OFFSET, as id lists. */
async function everyPage(schema: string, list: PostList) {
  // the posts a list shows: none staff hid, and on the home page's lists none pinned (they come apart)
  const filter = list.kind === 'tag' ? 'WHERE tag_keys @> ARRAY[lower(?)]::text[] AND hidden_at IS NULL' : 'WHERE hidden_at IS NULL AND pinned_at IS NULL';
  const order = list.kind === 'popular' ? 'score DESC, created_at DESC, id DESC' : 'created_at DESC, id DESC';
  const all = (
    await db.raw<{ rows: { id: string }[] }>(`SELECT id FROM "${schema}".posts ${filter} ORDER BY ${order}`, list.kind === 'tag' ? [list.tag] : [])
  ).rows.map((r) => r.id);
  const anchored: string[][] = [];
  const offsetPaged: string[][] = [];
  for (let offset = 0; offset <= all.length; offset += PAGE) {
    const { sql, bindings } = pageThroughBlocks(
      list,
      { posts: `"${schema}".posts`, blocks: `"${schema}".page_blocks`, settings: `"${schema}".page_settings`, tags: `"${schema}".post_tags`, columns: COLUMNS },
      offset,
      PAGE,
    );
    const { rows } = await db.raw<{ rows: { current: boolean; id: string | null }[] }>(sql, bindings);
    expect(rows[0]!.current).toBe(true);
    anchored.push(rows.filter((r) => r.id !== null).map((r) => r.id!));
    offsetPaged.push(all.slice(offset, offset + PAGE));
  }
  return { anchored, offsetPaged, posts: all.length };
}

async function expectEveryListPaged(schema: string) {
  const { rows } = await db.raw<{ rows: { k: string }[] }>(`SELECT DISTINCT unnest(tag_keys) AS k FROM "${schema}".posts ORDER BY 1`);
  const lists: PostList[] = [{ kind: 'newest' }, { kind: 'popular' }, ...rows.slice(0, 6).map((r) => ({ kind: 'tag' as const, tag: r.k.toUpperCase() }))];
  let posts = 0;
  for (const list of lists) {
    const pages = await everyPage(schema, list);
    expect(pages.anchored, JSON.stringify(list)).toEqual(pages.offsetPaged);
    posts = Math.max(posts, pages.posts);
  }
  return posts;
}

const problems = (inSchema: Awaited<ReturnType<typeof newSchema>>['inSchema']) => inSchema((trx) => postsProjection.derived!.problems(trx));

describe('page anchors', () => {
  it('give the pages OFFSET gives, through batches of random sizes with splits, votes and deletions', async () => {
    const { schema, inSchema } = await newSchema(4);
    await inSchema((trx) => createReadIndexes(trx, postsProjection));
    let random = 7;
    const next = () => (random = (random * 1103515245 + 12345) % 2147483648);
    const checkpoints = [Math.floor(log.length / 3), Math.floor((2 * log.length) / 3), log.length];
    let at = 0;
    for (const until of checkpoints) {
      while (at < until) {
        const size = 1 + (next() % 400);
        const batch = log.slice(at, Math.min(at + size, until));
        await inSchema((trx) => applyOwn(trx, postsProjection, batch));
        at += batch.length;
      }
      expect(await problems(inSchema), `after ${at} events`).toEqual([]);
      const posts = await expectEveryListPaged(schema);
      expect(posts).toBeGreaterThan(40);
    }
    const { rows } = await db.raw<{ rows: { blocks: number; deleted: number }[] }>(
      `SELECT (SELECT count(*) FROM "${schema}".page_blocks WHERE list = 'newest')::int AS blocks,
              (SELECT count(*) FROM "${schema}".posts)::int AS deleted`,
    );
    expect(rows[0]!.blocks).toBeGreaterThan(10); // they split
  }, 120_000);

  it('are made afresh after a replay that deferred them, and followed again after it', async () => {
    const { schema, inSchema } = await newSchema(4);
    const twoThirds = Math.floor((2 * log.length) / 3);
    // a rebuild: staged and settled without indexes, the anchors out of date meanwhile
    await stageUntil(store.sql!, postsProjection, { after: START, until: log[twoThirds - 1]!.position, rangeSize: 1000 }, (work) =>
      inSchema(work, [REPLAY_SETTINGS, DEFERRED_SETTING]),
    );
    await inSchema((trx) => settleReplay(trx, postsProjection, store.sql!), [REPLAY_SETTINGS, DEFERRED_SETTING]);
    expect((await db.raw<{ rows: { valid: boolean }[] }>(`SELECT valid FROM "${schema}".page_settings`)).rows[0]!.valid).toBe(false);
    // its tail: the indexes, then the anchors
    await inSchema((trx) => createReadIndexes(trx, postsProjection));
    await inSchema((trx) => postsProjection.derived!.rebuild(trx));
    expect(await problems(inSchema)).toEqual([]);
    await expectEveryListPaged(schema);
    // then it follows the log the ordinary way
    for (let at = twoThirds; at < log.length; at += 50) await inSchema((trx) => applyOwn(trx, postsProjection, log.slice(at, at + 50)));
    expect(await problems(inSchema)).toEqual([]);
    await expectEveryListPaged(schema);
  }, 120_000);

  it('report a block whose size is wrong', async () => {
    const { schema, inSchema } = await newSchema(4);
    await inSchema((trx) => applyOwn(trx, postsProjection, log.slice(0, 2000)));
    await db.raw(`UPDATE "${schema}".page_blocks SET size = size + 1 WHERE list = 'newest' AND lo_created = '-infinity'`);
    expect(await problems(inSchema)).toEqual([expect.stringMatching(/^newest block .*: size \d+, holds \d+$/)]);
  });
});
