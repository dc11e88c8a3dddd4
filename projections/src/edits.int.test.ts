import type { CommentAdded, CommentEdited, PostCreated, PostEdited } from '@forum/contracts';
import { uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentsProjection } from './comments/projection.ts';
import { postsProjection } from './posts/projection.ts';
import { projectionHarness } from './testing/given.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('edits');
});
afterAll(() => harness?.stop());

const minute = (m: number) => new Date(Date.UTC(2026, 4, 1, 9, m)).toISOString();
const post = (n: number, tags: string[]) =>
  harness.event<PostCreated['data']>('PostCreated', {
    postId: uuidOf(n),
    title: 'Herons in winter',
    description: 'Herons wait by the frozen pond.',
    tags,
    authorId: 'u-ann',
    authorName: 'Ann',
    authorEmail: 'ann@forum.test',
    authorPhoto: '',
    createdAt: minute(0),
  });
const postEdited = (
  n: number,
  revision: number,
  at: number,
  fields: Pick<PostEdited['data'], 'title' | 'description' | 'tags'>,
  by = 'u-ann',
  reason?: string,
) =>
  harness.event<PostEdited['data']>('PostEdited', {
    postId: uuidOf(n),
    authorId: 'u-ann',
    editorId: by,
    ...fields,
    ...(reason !== undefined && { reason }),
    revision,
    editedAt: minute(at),
  });
const comment = (c: number, n: number) =>
  harness.event<CommentAdded['data']>('CommentAdded', {
    commentId: uuidOf(1000 + c),
    postId: uuidOf(n),
    text: 'Nice heron',
    authorId: 'u-ben',
    authorName: 'Ben',
    authorEmail: 'ben@forum.test',
    authorPhoto: '',
    createdAt: minute(1),
  });
const commentEdited = (c: number, n: number, revision: number, at: number, text: string, by = 'u-ben', reason?: string) =>
  harness.event<CommentEdited['data']>('CommentEdited', {
    commentId: uuidOf(1000 + c),
    postId: uuidOf(n),
    authorId: 'u-ben',
    editorId: by,
    text,
    ...(reason !== undefined && { reason }),
    revision,
    editedAt: minute(at),
  });
const erased = (userId: string, content: 'kept' | 'erased') => harness.event('AccountErased', { userId, content, erasedAt: minute(50) }, `user-${userId}`);

const POST_TABLES = ['posts', 'post_search', 'post_revisions', 'tag_counters', 'post_tags', 'counters'];

describe('given a post edited by its author within the grace period, then later, then by an admin', () => {
  const log = () => [
    post(1, ['React', 'news']),
    // folds into revision 1: the post reads as it, and shows no edit
    postEdited(1, 1, 2, { title: 'Herons in winter', description: 'Herons wait by the frozen lake.', tags: ['React', 'news'] }),
    postEdited(1, 2, 20, { title: 'Egrets in winter', description: 'Egrets wait by the frozen lake.', tags: ['news'] }),
    // folds into revision 2: its time is the last fold's
    postEdited(1, 2, 22, { title: 'Egrets in winter', description: 'Egrets stand by the frozen lake.', tags: ['news', 'Birds'] }),
    postEdited(
      1,
      3,
      40,
      { title: 'Egrets in spring', description: 'Egrets stand by the thawing lake.', tags: ['news', 'Birds'] },
      'u-admin',
      'Fixed the season',
    ),
  ];

  it.each([1, 2, 100])(
    'then the post reads as its latest, with its revisions, tags and words moved, live (batches of %i) and replayed alike',
    async (batchSize) => {
      const { ordinary } = await harness.liveAndReplayed(postsProjection, log(), batchSize, POST_TABLES);
      expect(await ordinary.rows('SELECT title, description, summary, tags, tag_keys, edited_at, revision_count FROM posts')).toEqual([
        {
          title: 'Egrets in spring',
          description: 'Egrets stand by the thawing lake.',
          summary: 'Egrets stand by the thawing lake.',
          tags: ['news', 'Birds'],
          tag_keys: ['news', 'birds'],
          edited_at: new Date(minute(40)),
          revision_count: 3,
        },
      ]);
      expect(await ordinary.rows('SELECT number, edited_at, editor_id, reason, title, description, tags FROM post_revisions ORDER BY number')).toEqual([
        // as created, folded into: at the post's creation, by its author
        {
          number: 1,
          edited_at: new Date(minute(0)),
          editor_id: 'u-ann',
          reason: null,
          title: 'Herons in winter',
          description: 'Herons wait by the frozen lake.',
          tags: ['React', 'news'],
        },
        {
          number: 2,
          edited_at: new Date(minute(22)),
          editor_id: 'u-ann',
          reason: null,
          title: 'Egrets in winter',
          description: 'Egrets stand by the frozen lake.',
          tags: ['news', 'Birds'],
        },
        {
          number: 3,
          edited_at: new Date(minute(40)),
          editor_id: 'u-admin',
          reason: 'Fixed the season',
          title: 'Egrets in spring',
          description: 'Egrets stand by the thawing lake.',
          tags: ['news', 'Birds'],
        },
      ]);
      expect(await ordinary.rows('SELECT tag_key, posts FROM tag_counters WHERE posts > 0 ORDER BY tag_key')).toEqual([
        { tag_key: 'birds', posts: 1 },
        { tag_key: 'news', posts: 1 },
      ]);
      expect(await ordinary.rows('SELECT tag_key FROM post_tags ORDER BY tag_key')).toEqual([{ tag_key: 'birds' }, { tag_key: 'news' }]);
      const found = (words: string) =>
        ordinary.rows<{ n: number }>("SELECT count(*)::int AS n FROM post_search WHERE search @@ websearch_to_tsquery('english', ?)", [words]);
      expect(await found('thawing egrets')).toEqual([{ n: 1 }]);
      expect(await found('herons')).toEqual([{ n: 0 }]);
      expect(await ordinary.inSchema((trx) => postsProjection.derived!.problems(trx))).toEqual([]);
    },
  );

  it('when an edit only folds into the first revision, then the post shows no edit and keeps no revisions', async () => {
    const { ordinary } = await harness.liveAndReplayed(postsProjection, log().slice(0, 2), 1, POST_TABLES);
    expect(await ordinary.rows('SELECT description, edited_at, revision_count FROM posts')).toEqual([
      { description: 'Herons wait by the frozen lake.', edited_at: null, revision_count: 1 },
    ]);
    expect(await ordinary.rows('SELECT * FROM post_revisions')).toEqual([]);
  });

  it('when the post is deleted, then its revisions go with it', async () => {
    const edited = log();
    const deleted = harness.event('PostDeleted', { postId: uuidOf(1), authorId: 'u-ann', deletedBy: 'u-ann', deletedAt: minute(45) });
    const { ordinary } = await harness.liveAndReplayed(postsProjection, [...edited, deleted], 3, POST_TABLES);
    expect(await ordinary.rows('SELECT * FROM post_revisions')).toEqual([]);
    expect(await ordinary.rows('SELECT tag_key, posts FROM tag_counters WHERE posts <> 0')).toEqual([]);
  });

  it.each(['kept', 'erased'] as const)('when its author erases their account (content %s), then the revisions read as the post does', async (content) => {
    const { ordinary } = await harness.liveAndReplayed(postsProjection, [...log(), erased('u-ann', content)], 2, POST_TABLES);
    const revisions = await ordinary.rows<{ title: string; description: string }>('SELECT title, description FROM post_revisions ORDER BY number');
    expect(revisions.map((r) => r.title)).toEqual(content === 'kept' ? ['Herons in winter', 'Egrets in winter', 'Egrets in spring'] : ['', '', '']);
    expect(revisions.every((r) => (r.description === '') === (content === 'erased'))).toBe(true);
  });
});

describe('given a comment edited by its author, then by an admin', () => {
  const log = () => [
    post(2, []),
    comment(1, 2),
    commentEdited(1, 2, 1, 3, 'Nice heron!'),
    commentEdited(1, 2, 2, 30, 'Nice egret!'),
    commentEdited(1, 2, 3, 41, 'Nice egret.', 'u-admin', 'Calmer'),
  ];

  it.each([1, 100])('then the comment reads as its latest, with its revisions, live (batches of %i) and replayed alike', async (batchSize) => {
    const { ordinary } = await harness.liveAndReplayed(commentsProjection, log(), batchSize, ['comments', 'revisions', 'counters']);
    expect(await ordinary.rows('SELECT text, edited_at, revision_count FROM comments')).toEqual([
      { text: 'Nice egret.', edited_at: new Date(minute(41)), revision_count: 3 },
    ]);
    expect(await ordinary.rows('SELECT number, edited_at, editor_id, reason, text FROM revisions ORDER BY number')).toEqual([
      { number: 1, edited_at: new Date(minute(1)), editor_id: 'u-ben', reason: null, text: 'Nice heron!' },
      { number: 2, edited_at: new Date(minute(30)), editor_id: 'u-ben', reason: null, text: 'Nice egret!' },
      { number: 3, edited_at: new Date(minute(41)), editor_id: 'u-admin', reason: 'Calmer', text: 'Nice egret.' },
    ]);
  });

  it('when the comment is removed or its post deleted, then its revisions go with it', async () => {
    const edited = log();
    const removed = harness.event('CommentRemoved', {
      commentId: uuidOf(1001),
      postId: uuidOf(2),
      authorId: 'u-ben',
      removedBy: 'u-admin',
      removedAt: minute(45),
    });
    const { ordinary } = await harness.liveAndReplayed(commentsProjection, [...edited, removed], 2, ['comments', 'revisions']);
    expect(await ordinary.rows('SELECT * FROM revisions')).toEqual([]);
    const again = log();
    const deleted = harness.event('PostDeleted', { postId: uuidOf(2), authorId: 'u-ann', deletedBy: 'u-ann', deletedAt: minute(45) });
    const gone = await harness.liveAndReplayed(commentsProjection, [...again, deleted], 2, ['comments', 'revisions']);
    expect(await gone.ordinary.rows('SELECT * FROM revisions')).toEqual([]);
  });

  it.each(['kept', 'erased'] as const)('when its author erases their account (content %s), then the revisions read as the comment does', async (content) => {
    const { ordinary } = await harness.liveAndReplayed(commentsProjection, [...log(), erased('u-ben', content)], 2, ['comments', 'revisions']);
    const texts = (await ordinary.rows<{ text: string }>('SELECT text FROM revisions ORDER BY number')).map((r) => r.text);
    expect(texts).toEqual(content === 'kept' ? ['Nice heron!', 'Nice egret!', 'Nice egret.'] : ['', '', '']);
  });
});
