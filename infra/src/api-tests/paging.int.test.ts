import { randomUUID } from 'node:crypto';
import {
  COMMENT_PAGE_MAX,
  COMMENT_PAGE_SIZE,
  CommentAdded,
  commentStream,
  HEADER_TOTAL_COUNT,
  positionToken,
  UNPAGED_LIST_MAX,
  type CommentItem,
  type CommentsPage,
  type ErrorBody,
} from '@forum/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureReads } from '../load/sql-capture.ts';
import { minPositionHeaders, startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';

/**
 * A post's comments in pages (docs/security/paging.md): GET /api/posts/:id/comments walks them with a
 * keyset cursor, oldest or newest first, and the spec's GET /api/comments/:postId answers the first
 * UNPAGED_LIST_MAX of them with the total in X-Total-Count. Over the real forum: HTTP, the
 * projections and PostgreSQL.
 */
let forum: TestForum;
let author: NewUser;
let readers: NewUser[];

beforeAll(async () => {
  forum = await startTestForum();
  readers = [];
  for (const name of ['Ada Pager', 'Ben Pager', 'Cy Pager']) readers.push(await forum.newUser(name));
});
afterAll(() => forum?.stop());

/** A post of a new author (a free member may write five). */
async function createPost(): Promise<string> {
  author = await forum.newUser('Paging Author');
  return (
    await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Paged', description: 'Comments below', tags: [] } }),
      201,
    )
  ).id;
}

/** `count` comments through the API, taking turns among the readers; the last one's position. */
async function comment(postId: string, count: number, label: string): Promise<string> {
  let position = '';
  for (let i = 0; i < count; i++) {
    const reader = readers[i % readers.length]!;
    position = (
      await expectStatus<{ position: string }>(
        forum.api('/api/comments', { method: 'POST', token: reader.token, json: { postId, text: `${label} ${i}` } }),
        201,
      )
    ).position;
  }
  return position;
}

/**
 * Comments written straight into the log at the given times (more than a member may send through
 * the API in a test, and times that share a millisecond); the append's position.
 */
async function seedComments(postId: string, times: readonly string[]): Promise<string> {
  const result = await forum.store.append(
    times.map((createdAt, i) => {
      const commentId = randomUUID();
      return {
        streamId: commentStream(commentId),
        expectedVersion: 'no_stream' as const,
        events: [
          {
            type: CommentAdded.type,
            data: {
              commentId,
              postId,
              text: `Seeded ${i}`,
              authorId: readers[0]!.id,
              authorName: readers[0]!.name,
              authorEmail: readers[0]!.email,
              authorPhoto: '',
              createdAt,
            },
            metadata: { actorId: readers[0]!.id, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: CommentAdded.schemaVersion },
          },
        ],
      };
    }),
  );
  return positionToken(result.lastPosition);
}

const page = (postId: string, query: string, position?: string) =>
  expectStatus<CommentsPage>(forum.api(`/api/posts/${postId}/comments${query}`, { headers: minPositionHeaders(position) }));

/** Every page of a post's comments in `order`, `limit` a page, with the pages' sizes. */
async function walk(postId: string, order: 'oldest' | 'newest', limit: number, position?: string) {
  const comments: CommentItem[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?order=${order}&limit=${limit}${cursor ? `&after=${cursor}` : ''}`;
    const answer: CommentsPage = await page(postId, query, position);
    comments.push(...answer.comments);
    sizes.push(answer.comments.length);
    cursor = answer.nextCursor;
  } while (cursor);
  return { comments, sizes };
}

const unpaged = async (postId: string, position?: string) => {
  const response = await forum.api(`/api/comments/${postId}`, { headers: minPositionHeaders(position) });
  return { body: await expectStatus<CommentItem[]>(response), total: response.headers.get(HEADER_TOTAL_COUNT) };
};
const ids = (comments: readonly CommentItem[]) => comments.map((c) => c._id);

describe('GET /api/posts/:id/comments', () => {
  it('walks every page oldest first and newest first: together the unpaged list, in its order and reversed, each comment once', async () => {
    const postId = await createPost();
    const position = await comment(postId, 12, 'Walked');
    const list = await unpaged(postId, position);
    expect(list.body.map((c) => c.text)).toEqual(Array.from({ length: 12 }, (_, i) => `Walked ${i}`));
    expect(list.total).toBe('12');

    const oldest = await walk(postId, 'oldest', 5, position);
    expect(oldest.comments).toEqual(list.body);
    expect(oldest.sizes).toEqual([5, 5, 2]);
    const newest = await walk(postId, 'newest', 5, position);
    expect(newest.comments).toEqual([...list.body].reverse());

    const first = await page(postId, '', position);
    expect(first).toEqual({ comments: list.body, nextCursor: null, totalCount: 12 });
    // a page that ends exactly at the last comment has no next page
    expect((await page(postId, '?limit=12', position)).nextCursor).toBeNull();
    expect((await page(postId, '?limit=11', position)).nextCursor).toEqual(expect.any(String));
    // a visitor's read, kept and revalidated as the other public reads are
    expect((await forum.api(`/api/posts/${postId}/comments?order=newest`)).headers.get('ETag')).toMatch(/^W\/".+"$/);
  });

  it('is stable while comments are added: newest first the later pages go on where the first stopped; oldest first the new ones come at the end', async () => {
    const postId = await createPost();
    const before = await comment(postId, 10, 'Before');
    const original = (await unpaged(postId, before)).body;

    const firstNewest = await page(postId, '?order=newest&limit=4', before);
    expect(ids(firstNewest.comments)).toEqual(ids(original.slice(-4).reverse()));
    const firstOldest = await page(postId, '?order=oldest&limit=4', before);

    const added = await comment(postId, 3, 'During');
    const rest: CommentItem[] = [];
    for (let cursor = firstNewest.nextCursor; cursor;) {
      const next = await page(postId, `?order=newest&limit=4&after=${cursor}`, added);
      expect(next.totalCount).toBe(13);
      rest.push(...next.comments);
      cursor = next.nextCursor;
    }
    expect(ids([...firstNewest.comments, ...rest])).toEqual(ids([...original].reverse()));

    const oldestRest: CommentItem[] = [];
    for (let cursor = firstOldest.nextCursor; cursor;) {
      const next = await page(postId, `?order=oldest&limit=4&after=${cursor}`, added);
      oldestRest.push(...next.comments);
      cursor = next.nextCursor;
    }
    const walked = [...firstOldest.comments, ...oldestRest];
    expect(walked.map((c) => c.text)).toEqual([...original.map((c) => c.text), 'During 0', 'During 1', 'During 2']);
    expect(new Set(ids(walked)).size).toBe(walked.length);
  });

  it('orders comments of one instant by id, to the microsecond, across page ends', async () => {
    const postId = await createPost();
    // three at one microsecond, two a microsecond apart within one millisecond, then one a second later
    const times = [
      '2026-03-01T10:00:00.000001Z',
      '2026-03-01T10:00:00.000001Z',
      '2026-03-01T10:00:00.000001Z',
      '2026-03-01T10:00:00.123456Z',
      '2026-03-01T10:00:00.123457Z',
      '2026-03-01T10:00:01Z',
    ];
    const position = await seedComments(postId, times);
    const list = (await unpaged(postId, position)).body;
    expect(list).toHaveLength(6);
    for (const limit of [1, 2, 4]) {
      expect(ids((await walk(postId, 'oldest', limit, position)).comments), `oldest, ${limit} a page`).toEqual(ids(list));
      expect(ids((await walk(postId, 'newest', limit, position)).comments), `newest, ${limit} a page`).toEqual(ids(list).reverse());
    }
    const sameInstant = ids(list.slice(0, 3));
    expect(sameInstant).toEqual([...sameInstant].sort());
  });

  it('shows a comment author’s email to them and to admins, never to others', async () => {
    const postId = await createPost();
    const position = await comment(postId, 1, 'Mine');
    const seenBy = async (token?: string) =>
      (await expectStatus<CommentsPage>(forum.api(`/api/posts/${postId}/comments`, { headers: minPositionHeaders(position), ...(token && { token }) })))
        .comments[0]!;
    expect(await seenBy()).not.toHaveProperty('authorEmail');
    expect(await seenBy(author.token)).not.toHaveProperty('authorEmail');
    expect(await seenBy(readers[0]!.token)).toMatchObject({ authorEmail: readers[0]!.email });
    expect(await seenBy((await forum.demoAdmin()).token)).toMatchObject({ authorEmail: readers[0]!.email });
  });

  it('refuses what is not a page of this list with 400 VALIDATION_FAILED and the field, and an unknown post with 404', async () => {
    const postId = await createPost();
    const position = await comment(postId, 3, 'Guarded');
    const cursor = (await page(postId, '?order=newest&limit=1', position)).nextCursor!;
    const refused: [string, string][] = [
      ['?order=sideways', 'order'],
      ['?limit=0', 'limit'],
      [`?limit=${COMMENT_PAGE_MAX + 1}`, 'limit'],
      ['?limit=2.5', 'limit'],
      ['?limit=many', 'limit'],
      ['?limit=99999999999999999999999', 'limit'],
      ['?after=nonsense', 'after'],
      ['?after=', 'after'],
      [`?after=${'A'.repeat(5000)}`, 'after'],
      ['?after=%00', 'after'],
      // bytes that are not UTF-8: the whole query string is refused
      ['?after=%ED%A0%80', '_'],
      [`?after=${Buffer.from('o:1:not-a-uuid').toString('base64url')}`, 'after'],
      // a cursor of the newest-first list does not go on oldest first
      [`?after=${cursor}`, 'after'],
      [`?order=newest&after=${cursor}&after=${cursor}`, 'after'],
    ];
    for (const [query, field] of refused) {
      const response = await forum.api(`/api/posts/${postId}/comments${query}`);
      const body = (await response.json()) as ErrorBody;
      expect([query.slice(0, 60), response.status, body.error.code, Object.keys(body.error.details as object)]).toEqual([
        query.slice(0, 60),
        400,
        'VALIDATION_FAILED',
        [field],
      ]);
    }
    expect((await expectStatus<CommentsPage>(forum.api(`/api/posts/${postId}/comments?order=newest&after=${cursor}`))).comments).toHaveLength(2);
    const missing = await expectStatus<ErrorBody>(forum.api(`/api/posts/${randomUUID()}/comments`), 404);
    expect(missing.error.code).toBe('NOT_FOUND');
    expect((await expectStatus<ErrorBody>(forum.api('/api/posts/not-a-post/comments'), 400)).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('a post with more comments than the unpaged bound', () => {
  let postId: string;
  let position: string;
  const count = UNPAGED_LIST_MAX + 30;

  beforeAll(async () => {
    postId = await createPost();
    const start = Date.parse('2026-04-01T00:00:00Z');
    position = await seedComments(
      postId,
      Array.from({ length: count }, (_, i) => new Date(start + i * 1000).toISOString()),
    );
  });

  it(`GET /api/comments/:postId answers its first ${UNPAGED_LIST_MAX}, oldest first, and counts them all in X-Total-Count`, async () => {
    const list = await unpaged(postId, position);
    expect(list.body).toHaveLength(UNPAGED_LIST_MAX);
    expect(list.total).toBe(String(count));
    const walked = await walk(postId, 'oldest', COMMENT_PAGE_MAX, position);
    expect(walked.sizes).toEqual([COMMENT_PAGE_MAX, count - COMMENT_PAGE_MAX]);
    expect(walked.comments.slice(0, UNPAGED_LIST_MAX)).toEqual(list.body);
    expect(new Set(ids(walked.comments)).size).toBe(count);
    const first = await page(postId, '', position);
    expect([first.comments.length, first.totalCount]).toEqual([COMMENT_PAGE_SIZE, count]);
  });

  it('reads a deep page through the comments’ index by post and time: only the page’s rows, no sort', async () => {
    const second = (await page(postId, `?order=newest&limit=${COMMENT_PAGE_MAX}`, position)).nextCursor!;
    const cursorDeep = (await page(postId, `?order=newest&limit=${count - COMMENT_PAGE_MAX - 5}&after=${second}`, position)).nextCursor!;
    const captured = await captureReads(forum.databaseUrl, forum.url, forum.issuer, [
      { name: 'deep', path: `/posts/${postId}/comments?order=newest&limit=5&after=${cursorDeep}` },
    ]);
    const { statements, status } = captured.get('deep')!;
    expect(status).toBe(200);
    const read = statements.find((s) => s.text.includes('read.comments'))!;
    const client = new pg.Client({ connectionString: forum.databaseUrl });
    await client.connect();
    try {
      // whether the index can serve it alone, whatever the planner would choose for a table this small
      await client.query('SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${read.text}`, read.values as unknown[]);
      const nodes = flatten(rows[0]!['QUERY PLAN'][0].Plan);
      const scan = nodes.find((node) => node['Relation Name'] === 'comments')!;
      expect([scan['Node Type'], scan['Index Name']]).toEqual([expect.stringMatching(/^Index (Only )?Scan$/), 'comments_of_post']);
      expect(scan['Actual Rows']).toBeLessThanOrEqual(6);
      // the page's rows in order may be sorted again above the join, never the post's comments
      expect(Math.max(0, ...nodes.filter((node) => node['Node Type'] === 'Sort').map((node) => node['Actual Rows'] ?? 0))).toBeLessThanOrEqual(6);
    } finally {
      await client.end();
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];
