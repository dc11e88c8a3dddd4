import { MENTIONS_NOTIFIED_MAX } from '@forum/contracts';
import type { RecordedEvent } from '@forum/eventstore';
import { uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { notificationsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('notifications_fan_out');
});
afterAll(() => harness?.stop());

type Model = Awaited<ReturnType<typeof harness.fresh>>;

const time = (minute: number) => new Date(Date.UTC(2026, 10, 29, 10, minute)).toISOString();
const versions = new Map<string, number>();
/** An event of `stream`, at the stream's next version (the notifications' ids are made from them). */
function inStream<Data>(type: string, data: Data, stream: string): RecordedEvent<string, Data> {
  const version = (versions.get(stream) ?? 0) + 1;
  versions.set(stream, version);
  return { ...harness.event(type, data, stream), streamVersion: version };
}

const post = (n: number, authorId: string, { tags = [] as string[], description = 'About it', minute = 0 } = {}) =>
  inStream(
    'PostCreated',
    {
      postId: uuidOf(n),
      title: `Post ${n}`,
      description,
      tags,
      authorId,
      authorName: authorId,
      authorEmail: `${authorId}@x`,
      authorPhoto: '',
      createdAt: time(minute),
    },
    `post-${uuidOf(n)}`,
  );
const comment = (n: number, postN: number, authorId: string, { text = 'Nice', minute = 0 } = {}) =>
  inStream(
    'CommentAdded',
    { commentId: uuidOf(n), postId: uuidOf(postN), text, authorId, authorName: authorId, authorEmail: '', authorPhoto: '', createdAt: time(minute) },
    `comment-${uuidOf(n)}`,
  );
const commentEdited = (n: number, postN: number, authorId: string, text: string) =>
  inStream(
    'CommentEdited',
    { commentId: uuidOf(n), postId: uuidOf(postN), authorId, editorId: authorId, text, revision: 2, editedAt: time(30) },
    `comment-${uuidOf(n)}`,
  );
const handle = (userId: string, name: string) => inStream('HandleChanged', { userId, handle: name, source: 'profile', changedAt: time(0) }, `user-${userId}`);
const follows = (type: 'PostFollowed' | 'PostUnfollowed', userId: string, postN: number) =>
  inStream(type, { userId, postId: uuidOf(postN), at: time(0) }, `follows-${userId}`);
const tagFollows = (type: 'TagFollowed' | 'TagUnfollowed', userId: string, tag: string) => inStream(type, { userId, tag, at: time(0) }, `follows-${userId}`);
const read = (userId: string, what: { ids?: string[]; upTo?: string }) =>
  inStream('NotificationsRead', { userId, ...what, readAt: time(59) }, `notifications-${userId}`);
const erased = (userId: string, content: 'kept' | 'erased' = 'kept') => inStream('AccountErased', { userId, content, erasedAt: time(59) }, `user-${userId}`);

type Row = { user_id: string; kind: string; post_id: string; comment_id: string | null; actor_id: string; count: number; read: boolean; tag: string | null };
const activity = (model: Model) =>
  model.rows<Row>(
    `SELECT user_id, kind, post_id, comment_id, actor_id, count, read, tag FROM notifications WHERE kind <> 'warning'
     ORDER BY user_id, created_at, kind, comment_id`,
  );
const row = (user_id: string, kind: string, postN: number, fields: Partial<Row> = {}): Row => ({
  user_id,
  kind,
  post_id: uuidOf(postN),
  comment_id: null,
  actor_id: '',
  count: 1,
  read: false,
  tag: null,
  ...fields,
});

describe('comments on a post', () => {
  it('notify its author (reply) and its followers (followed-post), never the commenter; commenters follow by default; comments collapse while unread', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([post(1, 'ann'), comment(11, 1, 'ben'), comment(12, 1, 'ann'), comment(13, 1, 'cy', { minute: 5 })]);
    expect(await activity(model)).toEqual([
      row('ann', 'reply', 1, { comment_id: uuidOf(11), actor_id: 'cy', count: 2 }),
      row('ben', 'followed-post', 1, { comment_id: uuidOf(12), actor_id: 'cy', count: 2 }),
    ]);
    const [first] = await model.rows<{ id: string }>("SELECT id FROM notifications WHERE user_id = 'ann'");
    // once read, the next comment starts a new row
    await model.given([read('ann', { ids: [first!.id] }), comment(14, 1, 'ben', { minute: 10 })]);
    expect(await activity(model)).toEqual([
      row('ann', 'reply', 1, { comment_id: uuidOf(11), actor_id: 'cy', count: 2, read: true }),
      row('ann', 'reply', 1, { comment_id: uuidOf(14), actor_id: 'ben' }),
      row('ben', 'followed-post', 1, { comment_id: uuidOf(12), actor_id: 'cy', count: 2 }),
      row('cy', 'followed-post', 1, { comment_id: uuidOf(14), actor_id: 'ben' }),
    ]);
  });

  it('an explicit unfollow sticks (commenting again does not follow again, even the author); an explicit follow notifies', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([post(2, 'ann'), follows('PostUnfollowed', 'ann', 2), follows('PostFollowed', 'dee', 2), follows('PostUnfollowed', 'ben', 2)]);
    await model.given([comment(21, 2, 'ben'), comment(22, 2, 'ann'), comment(23, 2, 'cy')]);
    expect(await activity(model)).toEqual([row('dee', 'followed-post', 2, { comment_id: uuidOf(21), actor_id: 'cy', count: 3 })]);
    expect(await model.rows('SELECT user_id, following FROM post_followers ORDER BY user_id')).toEqual([
      { user_id: 'ann', following: false },
      { user_id: 'ben', following: false },
      { user_id: 'cy', following: true },
      { user_id: 'dee', following: true },
    ]);
  });
});

describe('a new post in a followed tag', () => {
  it('notifies the tag’s followers once (ignoring case), not its author; an unfollowed tag no longer does', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([tagFollows('TagFollowed', 'ben', 'News'), tagFollows('TagFollowed', 'ann', 'news'), tagFollows('TagFollowed', 'cy', 'Help')]);
    await model.given([post(3, 'ann', { tags: ['help', 'NEWS'] }), tagFollows('TagUnfollowed', 'cy', 'HELP'), post(4, 'dee', { tags: ['help'] })]);
    expect(await activity(model)).toEqual([
      row('ben', 'followed-tag', 3, { actor_id: 'ann', tag: 'NEWS' }),
      row('cy', 'followed-tag', 3, { actor_id: 'ann', tag: 'help' }),
    ]);
    expect(await model.rows('SELECT user_id, tag FROM tag_followers ORDER BY user_id')).toEqual([
      { user_id: 'ann', tag: 'news' },
      { user_id: 'ben', tag: 'News' },
    ]);
  });
});

describe('@mentions', () => {
  it('notify members by their handle (ignoring case), not the author; the mention wins over a reply or a followed tag', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([handle('ann', 'Ann_A'), handle('ben', 'ben'), handle('cy', 'cy.c'), tagFollows('TagFollowed', 'ben', 'x')]);
    await model.given([post(5, 'ann', { tags: ['x'], description: 'Hi @BEN and @nobody, @ann' }), comment(51, 5, 'cy', { text: 'Yes @ann_a, @cy.c `@ben`' })]);
    expect(await activity(model)).toEqual([
      row('ann', 'mention', 5, { comment_id: uuidOf(51), actor_id: 'cy' }),
      row('ben', 'mention', 5, { actor_id: 'ann' }),
    ]);
  });

  it('an edit notifies only whom it adds, once; a renamed handle no longer resolves; at most MENTIONS_NOTIFIED_MAX a text', async () => {
    const model = await harness.fresh(notificationsProjection);
    const many = Array.from({ length: MENTIONS_NOTIFIED_MAX + 2 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    await model.given([...many.map((name) => handle(name, name)), handle('dee', 'dee'), handle('eve', 'eve'), post(6, 'ann')]);
    await model.given([
      comment(61, 6, 'ben', { text: '@dee' }),
      commentEdited(61, 6, 'ben', '@dee and @eve'),
      commentEdited(61, 6, 'ben', '@dee and @eve!'),
      handle('eve', 'eve2'),
      comment(62, 6, 'ben', { text: '@eve' }),
      comment(63, 6, 'ben', { text: many.map((name) => `@${name}`).join(' ') }),
    ]);
    const mentions = await model.rows<{ user_id: string; comment_id: string }>(
      "SELECT user_id, comment_id FROM notifications WHERE kind = 'mention' ORDER BY user_id",
    );
    expect(mentions).toEqual([
      { user_id: 'dee', comment_id: uuidOf(61) },
      { user_id: 'eve', comment_id: uuidOf(61) },
      ...many.slice(0, MENTIONS_NOTIFIED_MAX).map((user_id) => ({ user_id, comment_id: uuidOf(63) })),
    ]);
  });
});

describe('reads and erasures', () => {
  it('NotificationsRead reads the member’s own rows up to a time, never a warning nor another member’s', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([
      post(7, 'ann'),
      post(8, 'ann'),
      comment(71, 7, 'ben', { minute: 1 }),
      comment(81, 8, 'ben', { minute: 3 }),
      harness.event('UserWarned', { warningId: uuidOf(700), userId: 'ann', reason: 'r', warnedBy: 'adm', warnedAt: time(2) }),
      read('ben', { upTo: time(50) }),
      read('ann', { upTo: time(2) }),
    ]);
    expect(await model.rows('SELECT kind, post_id, read FROM notifications ORDER BY updated_at')).toEqual([
      { kind: 'reply', post_id: uuidOf(7), read: true },
      { kind: 'warning', post_id: null, read: false },
      { kind: 'reply', post_id: uuidOf(8), read: false },
    ]);
  });

  it("an erased member's rows, follows and handle go, and nothing reaches them after; others' rows from them stay", async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([handle('ann', 'ann'), tagFollows('TagFollowed', 'ann', 't'), post(9, 'ann'), comment(91, 9, 'ben'), follows('PostFollowed', 'ann', 10)]);
    await model.given([erased('ann'), comment(92, 9, 'cy', { text: '@ann' }), post(10, 'cy', { tags: ['t'] }), erased('cy', 'erased')]);
    expect(await activity(model)).toEqual([row('ben', 'followed-post', 9, { comment_id: uuidOf(92), actor_id: 'cy' })]);
    // an erased author whose texts go with them: their mentions go too (a replay of their emptied texts mentions nobody)
    await model.given([handle('ben', 'ben'), comment(93, 9, 'dee', { text: '@ben' }), erased('dee', 'erased')]);
    expect(await activity(model)).toEqual([row('ben', 'followed-post', 9, { comment_id: uuidOf(92), actor_id: 'cy' })]);
    for (const table of ['post_followers', 'tag_followers', 'handles'])
      expect(await model.rows(`SELECT user_id FROM ${table} WHERE user_id = 'ann'`), table).toEqual([]);
  });

  it('a deleted post keeps its notifications and forgets its followers', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([post(11, 'ann'), comment(111, 11, 'ben')]);
    await model.given([inStream('PostDeleted', { postId: uuidOf(11), authorId: 'ann', deletedBy: 'ann', deletedAt: time(5) }, `post-${uuidOf(11)}`)]);
    expect(await activity(model)).toEqual([row('ann', 'reply', 11, { comment_id: uuidOf(111), actor_id: 'ben' })]);
    expect(await model.rows('SELECT * FROM post_followers')).toEqual([]);
  });
});

describe('a log applied in batches of any size', () => {
  it('gives the same rows and ids as applied all at once (ids are made from the log, not from the batches)', async () => {
    const log = [
      handle('ann', 'ann'),
      handle('ben', 'ben'),
      tagFollows('TagFollowed', 'cy', 'a'),
      post(12, 'ann', { tags: ['a'] }),
      comment(121, 12, 'ben', { minute: 1 }),
      comment(122, 12, 'cy', { minute: 2, text: '@ben' }),
      comment(123, 12, 'dee', { minute: 3 }),
      follows('PostUnfollowed', 'cy', 12),
      comment(124, 12, 'ben', { minute: 4 }),
      read('ann', { upTo: time(3) }),
      comment(125, 12, 'ben', { minute: 5 }),
      comment(126, 12, 'dee', { minute: 6, text: '@ann' }),
      // choices made and taken back within a run of them: the last one stands
      tagFollows('TagFollowed', 'dee', 'a'),
      tagFollows('TagUnfollowed', 'cy', 'A'),
      tagFollows('TagFollowed', 'cy', 'a'),
      tagFollows('TagUnfollowed', 'dee', 'A'),
      follows('PostUnfollowed', 'ann', 12),
      follows('PostFollowed', 'ann', 12),
      post(13, 'ben', { tags: ['A'], description: '@ann' }),
      comment(127, 12, 'cy', { minute: 7 }),
      comment(131, 13, 'ann', { minute: 7 }),
      comment(132, 13, 'cy', { minute: 8 }),
      comment(133, 13, 'dee', { minute: 9 }),
      commentEdited(133, 13, 'dee', '@ben @ann'),
      comment(134, 13, 'ann', { minute: 10 }),
      // what a run of texts depends on, amid it: a handle given to another member between two texts
      // naming it, an edit that names nobody, choices about the run's post and tag and about others,
      // the deletion of the run's post and of another; a choice taken back after a text it was made before
      handle('eve', 'eve'),
      post(14, 'eve', { tags: ['b'] }),
      comment(141, 14, 'ann', { minute: 11, text: 'Hi @eve' }),
      handle('eve', 'eve2'),
      handle('fay', 'eve'),
      comment(142, 14, 'ben', { minute: 12, text: '@eve and @eve2' }),
      commentEdited(141, 14, 'ann', 'Hi there'),
      tagFollows('TagFollowed', 'cy', 'B'),
      follows('PostUnfollowed', 'eve', 14),
      follows('PostFollowed', 'dee', 12),
      comment(143, 14, 'dee', { minute: 13 }),
      follows('PostFollowed', 'eve', 14),
      post(15, 'ben', { tags: ['B'] }),
      tagFollows('TagUnfollowed', 'cy', 'b'),
      comment(151, 15, 'ann', { minute: 14 }),
      inStream('PostDeleted', { postId: uuidOf(15), authorId: 'ben', deletedBy: 'ben', deletedAt: time(15) }, `post-${uuidOf(15)}`),
      comment(144, 14, 'cy', { minute: 16 }),
      inStream('PostDeleted', { postId: uuidOf(13), authorId: 'ben', deletedBy: 'ben', deletedAt: time(17) }, `post-${uuidOf(13)}`),
      comment(145, 14, 'ann', { minute: 18 }),
    ];
    const table = async (model: Model) => model.tableRows('notifications');
    const whole = await harness.fresh(notificationsProjection);
    await whole.given(log);
    const expected = await table(whole);
    expect(expected.length).toBeGreaterThan(8);
    for (const size of [1, 2, 3, 5]) {
      const model = await harness.fresh(notificationsProjection);
      await model.given(log, size);
      expect(await table(model), `batches of ${size}`).toEqual(expected);
      for (const other of ['post_followers', 'tag_followers', 'mentioned']) expect(await model.tableRows(other), other).toEqual(await whole.tableRows(other));
    }
  });
});
