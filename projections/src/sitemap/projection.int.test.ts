import { uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { SITEMAP_BLOCK } from './blocks.ts';
import { sitemapProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('sitemap_projection');
});
afterAll(() => harness?.stop());

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 10, minute)).toISOString();
const post = (n: number, tags: string[], minute: number) =>
  harness.event('PostCreated', {
    postId: uuidOf(n),
    title: 't',
    description: 'd',
    tags,
    authorId: 'a',
    authorName: 'A',
    authorEmail: 'a@x.org',
    authorPhoto: '',
    createdAt: at(minute),
  });
const tag = (n: number, name: string, minute: number) => harness.event('TagCreated', { tagId: uuidOf(1000 + n), name, createdAt: at(minute) });
const edited = (n: number, tags: string[], minute: number) =>
  harness.event('PostEdited', {
    postId: uuidOf(n),
    authorId: 'a',
    editorId: 'a',
    title: 't2',
    description: 'd2',
    tags,
    revision: 2,
    editedAt: at(minute),
  });
const deleted = (n: number, minute: number) => harness.event('PostDeleted', { postId: uuidOf(n), authorId: 'a', deletedBy: 'a', deletedAt: at(minute) });
const hidden = (n: number, minute: number) =>
  harness.event('PostHidden', { postId: uuidOf(n), authorId: 'a', reason: 'r', hiddenBy: 's', hiddenAt: at(minute) });
const unhidden = (n: number, minute: number) => harness.event('PostUnhidden', { postId: uuidOf(n), authorId: 'a', unhiddenBy: 's', unhiddenAt: at(minute) });
const commented = (n: number, minute: number) =>
  harness.event('CommentAdded', {
    commentId: uuidOf(5000 + minute),
    postId: uuidOf(n),
    text: 'c',
    authorId: 'b',
    authorName: 'B',
    authorEmail: 'b@x.org',
    authorPhoto: '',
    createdAt: at(minute),
  });

interface Page {
  seq: string;
  path: string;
  lastmod: Date;
  hidden: boolean;
}
const pages = (model: Awaited<ReturnType<typeof harness.fresh>>) =>
  model
    .rows<Page>('SELECT seq, path, lastmod, hidden FROM pages ORDER BY seq')
    .then((rows) => rows.map((r) => ({ seq: Number(r.seq), path: r.path, lastmod: r.lastmod.toISOString(), hidden: r.hidden })));

describe('given tags and posts', () => {
  const log = () => [
    tag(1, 'React', 0),
    post(1, ['react'], 1),
    post(2, ['Go'], 2),
    tag(2, 'Go', 3),
    post(3, ['REACT', 'go'], 4),
    commented(1, 5),
    edited(2, ['React'], 6),
    deleted(3, 7),
    hidden(1, 8),
  ];

  it('numbers the pages in the order they were published, each at the time it last changed, in batches of any size', async () => {
    const expected = [
      // React's list: post 1 (1), post 3 (4), post 2 came in (6), post 3 left (7), post 1 hidden (8)
      { seq: 1, path: '/tags/React', lastmod: at(8), hidden: false },
      // its text at 1, a comment at 5, hidden at 8 (its time is its page's, which did not change)
      { seq: 2, path: `/post/${uuidOf(1)}`, lastmod: at(5), hidden: true },
      { seq: 3, path: `/post/${uuidOf(2)}`, lastmod: at(6), hidden: false },
      // Go: created at 3, post 3 came in (4), post 2 left its list by an edit (6), post 3 was deleted (7)
      { seq: 4, path: '/tags/Go', lastmod: at(7), hidden: false },
    ];
    for (const batch of [1, 3, 100]) {
      const model = await harness.fresh(sitemapProjection);
      await model.given(log(), batch);
      expect(await pages(model), `batches of ${batch}`).toEqual(expected);
      expect(await model.rows('SELECT entry FROM pages WHERE seq = 3')).toEqual([
        { entry: `/post/${uuidOf(2)}</loc><lastmod>${at(6).replace('.000Z', 'Z')}</lastmod></url>` },
      ]);
      // every change, deletions and hidings included, moved the time of the first block
      expect(await model.rows('SELECT block, lastmod FROM blocks')).toEqual([{ block: 0, lastmod: new Date(at(8)) }]);
      // the deleted post's address is gone (410), the hidden one's is not
      expect(await model.rows('SELECT post_id, deleted_at FROM gone')).toEqual([{ post_id: uuidOf(3), deleted_at: new Date(at(7)) }]);
    }
  });

  it('shows a hidden post again at the time it was shown, and a deleted tag leaves', async () => {
    const model = await harness.fresh(sitemapProjection);
    await model.given([...log(), unhidden(1, 9), harness.event('TagDeleted', { tagId: uuidOf(1002), name: 'Go', deletedAt: at(10) })]);
    expect((await pages(model)).map(({ seq, lastmod, hidden }) => ({ seq, lastmod, hidden }))).toEqual([
      { seq: 1, lastmod: at(9), hidden: false },
      { seq: 2, lastmod: at(9), hidden: false },
      { seq: 3, lastmod: at(6), hidden: false },
    ]);
  });
});

describe('given more pages than a block holds', () => {
  it('keeps each block’s latest change apart', async () => {
    const model = await harness.fresh(sitemapProjection);
    const count = SITEMAP_BLOCK + 2;
    await model.given(
      Array.from({ length: count }, (_, i) => post(10_000 + i, [], i % 50)),
      500,
    );
    await model.given([deleted(10_000 + SITEMAP_BLOCK, 59)]);
    expect(await model.rows('SELECT block, lastmod FROM blocks ORDER BY block')).toEqual([
      { block: 0, lastmod: new Date(at(49)) },
      { block: 1, lastmod: new Date(at(59)) },
    ]);
    expect(await model.rows('SELECT count(*)::int AS n, max(seq)::int AS last FROM pages')).toEqual([{ n: count - 1, last: count }]);
  });
});
