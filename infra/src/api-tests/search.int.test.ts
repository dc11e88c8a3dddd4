import { ErrorCode, PAGE_SIZE, SEARCH_MATCH_CAP, type PostsPage, type SearchPage } from '@forum/contracts';
import { createKnex, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunityStore } from '@forum/query-service';
import pg from 'pg';
import { loadSyntheticLog } from '../load/synthetic-log.ts';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * Full-text search that cannot hurt the forum: bounded candidates whatever the words, an exact
 * total up to SEARCH_MATCH_CAP and 'more than' above it, and a bulkhead that keeps a flood of
 * searches from taking the read pool. A synthetic log of a few thousand posts: its common words
 * are in a third of them, as in a real forum.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let forum: TestForum;
let db: Knex;
const SEARCH_CONCURRENCY = 2;

beforeAll(async () => {
  database = await createTestDatabase('search');
  await loadSyntheticLog(database.url, { events: 40_000, seed: 7 });
  db = createKnex(database.url, { max: 2 });
  forum = await startTestForum({ DATABASE_URL: database.url, DEMO_DATA: 'false', SEARCH_CONCURRENCY: String(SEARCH_CONCURRENCY), SEARCH_QUEUE: '4' });
  // the first build of the read models, over the whole log: ready only once the read indexes are there
  const readyWithIndexes = async () => {
    if ((await forum.api('/readyz')).status !== 200) return null;
    const { rows } = await db.raw<{ rows: { n: number }[] }>(
      `SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'posts_newest'
         AND schemaname = (SELECT 'posts_v' || version || CASE WHEN build = 1 THEN '' ELSE '_b' || build END FROM projections.checkpoints WHERE name = 'posts' AND state = 'live')`,
    );
    return rows[0]!.n;
  };
  expect(await waitFor(readyWithIndexes, (n) => n !== null, 120_000, 50)).toBe(1);
}, 180_000);
afterAll(async () => {
  await db?.destroy();
  await forum?.stop();
  await database?.drop();
});

const search = async (query: string) => {
  const response = await forum.api(`/api/posts/search?${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as SearchPage;
};

/** The posts matching `q` that staff did not hide, newest first, as the read model has them. */
const matching = async (q: string) =>
  (
    await db.raw<{ rows: { id: string }[] }>(
      `SELECT id FROM read.posts WHERE search @@ websearch_to_tsquery('english', ?) AND hidden_at IS NULL ORDER BY created_at DESC, id DESC`,
      [q],
    )
  ).rows.map((row) => row.id);

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  Output?: string[];
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe('GET /api/posts/search?q=', () => {
  it(`ranks the newest ${SEARCH_MATCH_CAP} matches of a common word, and says more match`, async () => {
    const all = await matching('database');
    expect(all.length).toBeGreaterThan(SEARCH_MATCH_CAP); // the log makes it common
    const newest = new Set(all.slice(0, SEARCH_MATCH_CAP));

    const first = await search('q=database');
    expect(first).toMatchObject({ totalCount: SEARCH_MATCH_CAP, totalCountCapped: true });
    expect(first.posts).toHaveLength(PAGE_SIZE);
    expect(first.posts.every((post) => newest.has(post._id))).toBe(true);
    const lastPage = SEARCH_MATCH_CAP / PAGE_SIZE;
    const last = await search(`q=database&page=${lastPage}`);
    expect(last.posts).toHaveLength(PAGE_SIZE);
    expect(last.posts.every((post) => newest.has(post._id))).toBe(true);
    expect((await search(`q=database&page=${lastPage + 1}`)).posts).toEqual([]);
  });

  it("makes snippets of the page's posts only, once ranked: ts_headline runs on at most PAGE_SIZE rows of a common word's thousand", async () => {
    // the statement the store runs, as it runs it, asked to explain itself
    const statements: { sql: string; bindings: readonly unknown[] }[] = [];
    const listen = (query: { sql: string; bindings?: readonly unknown[] }) => statements.push({ sql: query.sql, bindings: query.bindings ?? [] });
    db.on('query', listen);
    const found = await createCommunityStore(db).fullText('database', null, 3);
    db.off('query', listen);
    expect(found.rows).toHaveLength(PAGE_SIZE);
    expect(found.rows.every((row) => row.snippet.title.length + row.snippet.description.length > 0)).toBe(true);
    const [statement] = statements.filter((query) => query.sql.includes('ts_headline'));
    // as the driver got it ($n placeholders), so through a client of its own
    const client = new pg.Client(database.url);
    await client.connect();
    const { rows } = await client
      .query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) ${statement!.sql}`, [...statement!.bindings])
      .finally(() => client.end());
    const headlined = nodes(rows[0]!['QUERY PLAN'][0].Plan).filter((node) => node.Output?.some((column) => column.includes('ts_headline')));
    expect(headlined.length).toBeGreaterThan(0);
    for (const node of headlined) expect(node['Actual Rows'] * node['Actual Loops'], node['Node Type']).toBeLessThanOrEqual(PAGE_SIZE);
  });

  it('answers as ranking the newest matches of the whole read model would, whatever the query', async () => {
    // the newest SEARCH_MATCH_CAP matches staff did not hide, best ranked first, then newest
    const reference = async (q: string) =>
      (
        await db.raw<{ rows: { id: string }[] }>(
          `SELECT id FROM (
             SELECT id, created_at, search FROM read.posts
             WHERE search @@ websearch_to_tsquery('english', :q) AND hidden_at IS NULL ORDER BY created_at DESC, id DESC LIMIT :cap
           ) c ORDER BY ts_rank(search, websearch_to_tsquery('english', :q)) DESC, created_at DESC, id DESC`,
          { q, cap: SEARCH_MATCH_CAP },
        )
      ).rows.map((row) => row.id);
    const queries = [
      'database index -xyzzyq',
      'rust or golang',
      '"database index"',
      'kubernetes android -mobile',
      '-database',
      'deploy -release -build',
      'the',
      'xyzzyq',
    ];
    for (const q of queries) {
      const expected = await reference(q);
      const total = (await matching(q)).length;
      const found: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const answer = await search(`q=${encodeURIComponent(q)}&page=${page}`);
        expect(answer, q).toMatchObject({ totalCount: Math.min(total, SEARCH_MATCH_CAP), totalCountCapped: total > SEARCH_MATCH_CAP });
        found.push(...answer.posts.map((post) => post._id));
      }
      expect(found, q).toEqual(expected.slice(0, 3 * PAGE_SIZE));
    }
  });

  it('gives a rarer search every match, once, with its exact total', async () => {
    const q = 'kubernetes android -mobile';
    const all = await matching(q);
    expect(all.length).toBeGreaterThan(PAGE_SIZE);
    expect(all.length).toBeLessThanOrEqual(SEARCH_MATCH_CAP);
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(all.length / PAGE_SIZE); page++) {
      const answer = await search(`q=${encodeURIComponent(q)}&page=${page}`);
      expect(answer).toMatchObject({ totalCount: all.length, totalCountCapped: false });
      pages.push(...answer.posts.map((post) => post._id));
    }
    expect(pages.toSorted()).toEqual(all.toSorted());
  });

  it('keeps a flood of searches to its bulkhead: the home page and a post answer meanwhile, the excess is told to retry', async () => {
    const words = ['database', 'index', 'query', 'cache', 'deploy', 'build', 'test', 'release', 'version', 'feature', 'design', 'review'];
    let most = 0;
    let flooding = true;
    const watching = (async () => {
      while (flooding) {
        const { rows } = await db.raw<{ rows: { n: number }[] }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'forum-read' AND state = 'active' AND query LIKE '%websearch_to_tsquery%'`,
        );
        most = Math.max(most, rows[0]!.n);
      }
    })();
    // waves of 120 at once until the bulkhead overflows (whether one wave does depends on how fast
    // this machine answers a search; a bulkhead that never refuses fails after five)
    const answers: Response[] = [];
    for (let wave = 0; wave < 5 && !answers.some((answer) => answer.status === 503); wave++) {
      const flood = Array.from({ length: 120 }, (_, i) =>
        forum.api(`/api/posts/search?q=${words[i % words.length]}%20${words[(i * 7) % words.length]}&page=${1 + ((i + wave * 5) % 9)}&wave=${wave}`),
      );
      const home = await forum.api('/api/posts');
      expect(home.status).toBe(200);
      const { posts } = (await home.json()) as PostsPage;
      expect((await forum.api(`/api/posts/${posts[0]!._id}`)).status).toBe(200);
      answers.push(...(await Promise.all(flood)));
    }
    flooding = false;
    await watching;
    const refused = answers.filter((answer) => answer.status === 503);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.headers.get('Retry-After')).toBe('1');
    expect(((await refused[0]!.json()) as { error: { code: string } }).error.code).toBe(ErrorCode.BUSY);
    expect(most).toBeLessThanOrEqual(SEARCH_CONCURRENCY);
    // the spec's search by tag is not a full-text search: it does not wait for the bulkhead
    expect((await forum.api('/api/posts/search?tag=react')).status).toBe(200);
  });
});

describe('deep pages', () => {
  it('are the pages OFFSET gives, through the page anchors or, while a replay has them out of date, without', async () => {
    const total = ((await (await forum.api('/api/posts')).json()) as PostsPage).totalCount;
    const deep = Math.ceil(total / PAGE_SIZE / 2);
    const cases = [`sort=newest&page=${deep}`, `sort=popularity&page=${deep}`, `page=${Math.ceil(total / PAGE_SIZE)}`];
    const read = async () => Promise.all(cases.map(async (query) => (await (await forum.api(`/api/posts?${query}`)).json()) as PostsPage));
    const anchored = await read();
    const order = { newest: 'created_at DESC, id DESC', popularity: 'score DESC, created_at DESC, id DESC' };
    for (const [i, query] of cases.entries()) {
      const page = Number(new URLSearchParams(query).get('page'));
      const sort = (new URLSearchParams(query).get('sort') ?? 'newest') as keyof typeof order;
      // the home page's lists: the posts staff did not hide nor pin (the pinned come apart, on the first page)
      const { rows } = await db.raw<{ rows: { id: string }[] }>(
        `SELECT id FROM read.posts WHERE hidden_at IS NULL AND pinned_at IS NULL ORDER BY ${order[sort]} LIMIT ? OFFSET ?`,
        [PAGE_SIZE, (page - 1) * PAGE_SIZE],
      );
      expect(
        anchored[i]!.posts.map((p) => p._id),
        query,
      ).toEqual(rows.map((r) => r.id));
      expect(anchored[i]!.totalCount).toBe(total);
      expect(anchored[i]!.posts.length).toBeGreaterThan(0);
    }
    const tag = ((await (await forum.api('/api/tags')).json()) as { name: string }[])[0]!.name;
    const tagged = (await (await forum.api(`/api/posts/search?tag=${encodeURIComponent(tag)}&page=3`)).json()) as PostsPage;
    await db.raw('UPDATE read.post_page_settings SET valid = false');
    try {
      expect(await read()).toEqual(anchored);
      expect(await (await forum.api(`/api/posts/search?tag=${encodeURIComponent(tag)}&page=3`)).json()).toEqual(tagged);
    } finally {
      await db.raw('UPDATE read.post_page_settings SET valid = true');
    }
  });
});
