import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NewEvent, StreamAppend } from '@forum/eventstore';
import {
  ADMIN_PAGE_SIZE,
  HANDLE_SUGGESTIONS_MAX,
  announcementStream,
  COMMENT_PAGE_MAX,
  COMMENT_PAGE_SIZE,
  commentReportStream,
  commentStream,
  compareLogPositions,
  contactMessageStream,
  HEADER_MIN_POSITION,
  HEADER_TOTAL_COUNT,
  HISTORY_PAGE_SIZE,
  LEADERBOARD_SIZE,
  followsStream,
  notificationsStream,
  PAGE_SIZE,
  QUEUE_REPORTS_SHOWN,
  positionToken,
  postReportStream,
  postStream,
  RECENT_POSTS,
  REVISION_LIST_MAX,
  TAG_LIST_MAX,
  TAGS_STREAM,
  NOTIFICATION_PAGE_SIZE,
  UNPAGED_LIST_MAX,
  userStream,
  voteStream,
  type History,
  type HistoryStates,
  type ReportQueue,
} from '@forum/contracts';
import { anyString, matching } from '@forum/platform/testing';
import { allProjections } from '@forum/projections';
import { migrateSnapshots } from '@forum/projections/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';

/**
 * No GET of the API answers an unbounded list (docs/security/paging.md): each list that can grow is
 * filled past its bound (straight into the log: more than a member may send through the API in a
 * test), and its answer holds at most the bound and says how many there are, or pages. The last
 * test holds this table to every GET route the query service declares.
 */
let forum: TestForum;
let admin: string;
let member: NewUser;
let postId: string;
let commentId: string;
let position: string;
const OVER = 5;
/** How many times an admin edits the first post and its first comment: more revisions than a list of them shows. */
const EDITS = REVISION_LIST_MAX + OVER;
const BULK_TAG = 'Bulk';

const at = (): Record<string, string> => ({ [HEADER_MIN_POSITION]: position });
const now = (i: number) => new Date(Date.parse('2026-05-01T00:00:00Z') + i * 1000).toISOString();

/** One stream's new events, as the services write them (a system actor; the projections read only the data). */
function events(streamId: string, written: readonly { type: string; data: unknown }[], actorId = 'system:bounded-lists-test'): StreamAppend {
  const metadata = { actorId, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
  return { streamId, expectedVersion: 'any', events: written.map((event): NewEvent => ({ ...event, metadata })) };
}
const times = <T>(count: number, make: (i: number) => T) => Array.from({ length: count }, (_, i) => make(i));

beforeAll(async () => {
  forum = await startTestForum();
  admin = (await forum.demoAdmin()).token;
  member = await forum.newUser('Prolific Member');
  await forum.register(member.token);
  const author = { authorId: member.id, authorName: member.name, authorEmail: member.email, authorPhoto: '' };
  const many = UNPAGED_LIST_MAX + OVER;
  const postIds = times(many, () => randomUUID());
  postId = postIds[0]!;
  commentId = randomUUID();
  // the posts first (one append writes its streams in the order of their ids): what follows is about them
  const posts = await forum.store.append(
    // a member's posts, all with one tag
    postIds.map((id, i) =>
      events(postStream(id), [
        { type: 'PostCreated', data: { postId: id, title: `Bulk ${i}`, description: 'Filling a list', tags: [BULK_TAG], ...author, createdAt: now(i) } },
      ]),
    ),
  );
  const appends: StreamAppend[] = [
    // a page of the moderators' queue and more: posts reported once each
    ...times(ADMIN_PAGE_SIZE + OVER, (i) =>
      events(postReportStream(postIds[i]!, 'queue-reporter'), [
        {
          type: 'PostReported',
          data: {
            postId: postIds[i]!,
            reporterId: 'queue-reporter',
            reporterName: 'Queue Reporter',
            reporterEmail: 'queue-reporter@forum.test',
            reporterPhoto: '',
            feedback: 'spam',
            reportedAt: now(i),
          },
        },
      ]),
    ),
    // one comment on their first post, reported by many
    events(commentStream(commentId), [{ type: 'CommentAdded', data: { commentId, postId, text: 'Reported a lot', ...author, createdAt: now(0) } }]),
    ...times(many, (i) =>
      events(commentReportStream(commentId, `reporter-${i}`), [
        {
          type: 'CommentReported',
          data: {
            commentId,
            postId,
            reporterId: `reporter-${i}`,
            reporterName: `Reporter ${i}`,
            reporterEmail: `reporter-${i}@forum.test`,
            reporterPhoto: '',
            feedback: 'spam',
            reportedAt: now(i),
          },
        },
      ]),
    ),
    // many comments on the first post
    ...times(many, (i) => {
      const id = randomUUID();
      return events(commentStream(id), [{ type: 'CommentAdded', data: { commentId: id, postId, text: `Comment ${i}`, ...author, createdAt: now(i + 1) } }]);
    }),
    // warnings to the member
    events(
      notificationsStream(member.id),
      times(many, (i) => ({
        type: 'UserWarned',
        data: { warningId: randomUUID(), userId: member.id, reason: `Warning ${i}`, warnedBy: 'system:test', warnedAt: now(i) },
      })),
    ),
    // announcements
    ...times(many, (i) => {
      const id = randomUUID();
      return events(announcementStream(id), [
        {
          type: 'AnnouncementPublished',
          data: {
            announcementId: id,
            title: `News ${i}`,
            description: 'Read me',
            authorId: 'system:test',
            authorName: 'Admin',
            authorPhoto: '',
            publishedAt: now(i),
          },
        },
      ]);
    }),
    // the member follows more tags than a list of them shows
    events(
      followsStream(member.id),
      times(TAG_LIST_MAX + OVER, (i) => ({ type: 'TagFollowed', data: { userId: member.id, tag: `Followed ${i}`, at: now(i) } })),
    ),
    // tags
    events(
      TAGS_STREAM,
      times(TAG_LIST_MAX + OVER, (i) => ({
        type: 'TagCreated',
        data: { tagId: randomUUID(), name: `bulk-tag-${String(i).padStart(4, '0')}`, createdAt: now(i) },
      })),
    ),
    // contact messages, users and a leaderboard longer than a page
    ...times(ADMIN_PAGE_SIZE + OVER, (i) => {
      const id = randomUUID();
      return events(contactMessageStream(id), [
        {
          type: 'ContactMessageReceived',
          data: { messageId: id, name: `Visitor ${i}`, email: `visitor-${i}@forum.test`, message: 'Hello', receivedAt: now(i) },
        },
      ]);
    }),
    ...times(ADMIN_PAGE_SIZE + OVER, (i) =>
      events(userStream(`bulk-user-${i}`), [
        {
          type: 'UserRegistered',
          data: { userId: `bulk-user-${i}`, email: `bulk-${i}@forum.test`, name: `Bulk User ${i}`, photoURL: '', registeredAt: now(i) },
        },
      ]),
    ),
    ...times(LEADERBOARD_SIZE + OVER, (i) => {
      const id = randomUUID();
      const authorId = `liked-author-${i}`;
      return events(postStream(id), [
        {
          type: 'PostCreated',
          data: {
            postId: id,
            title: 'Liked',
            description: 'x',
            tags: [],
            authorId,
            authorName: `Liked ${i}`,
            authorEmail: `liked-${i}@forum.test`,
            authorPhoto: '',
            createdAt: now(i),
          },
        },
      ]);
    }),
    // a long history: the member changing their name again and again
    events(
      userStream(member.id),
      times(HISTORY_PAGE_SIZE + OVER, (i) => ({ type: 'ProfileUpdated', data: { userId: member.id, changes: { name: `Prolific ${i}` }, updatedAt: now(i) } })),
      member.id,
    ),
  ];
  const written = await forum.store.append(appends);
  const revised = (i: number) => ({ authorId: member.id, editorId: 'bounded-lists-admin', reason: `Fix ${i}`, revision: i + 2, editedAt: now(i) });
  const edited = await forum.store.append([
    events(
      postStream(postId),
      times(EDITS, (i) => ({
        type: 'PostEdited',
        data: { postId, title: `Bulk 0, revision ${i + 2}`, description: 'Filling a list', tags: [BULK_TAG], ...revised(i) },
      })),
    ),
    events(
      commentStream(commentId),
      times(EDITS, (i) => ({ type: 'CommentEdited', data: { commentId, postId, text: `Reported a lot, revision ${i + 2}`, ...revised(i) } })),
    ),
  ]);
  // an up vote for each liked author's post (their ids are known only now)
  const liked = (
    await forum.db.raw<{ rows: { id: string }[] }>(
      `SELECT data->>'postId' AS id FROM eventstore.events WHERE type = 'PostCreated' AND data->>'authorId' LIKE 'liked-author-%'`,
    )
  ).rows;
  const votes = await forum.store.append(
    liked.map(({ id }) =>
      events(voteStream(id, 'voter'), [{ type: 'VoteCast', data: { postId: id, userId: 'voter', previous: 'none', vote: 'up', at: now(0) } }]),
    ),
  );
  position = positionToken(
    [posts, written, edited, votes]
      .map((append) => append.lastPosition)
      .sort(compareLogPositions)
      .at(-1)!,
  );
}, 120_000);
afterAll(() => forum?.stop());

/** A list GET and what it answers: the array (or the named list of an object) and what it says of the total. */
async function list(path: string, token?: string) {
  const response = await forum.api(path, { headers: at(), ...(token && { token }) });
  const body = await expectStatus<unknown>(response);
  return { body, total: response.headers.get(HEADER_TOTAL_COUNT), range: response.headers.get('Content-Range') };
}
const lengthOf = (body: unknown, key?: string) => (key ? (body as Record<string, unknown[]>)[key]! : (body as unknown[])).length;

/**
 * Every GET route of the query service (its path as declared) → how its answer is bounded, checked
 * over the filled read models. A route that answers no list says so.
 */
const BOUNDS: Record<string, (() => Promise<void>) | 'not a list'> = {
  '/me': 'not a list',
  '/posts/:id': 'not a list',
  '/user-post-count/:email': 'not a list',
  '/users/admin/:email': 'not a list',
  '/admin/stats': 'not a list',
  // a stream of messages, not a list: its topics are bounded (STREAM_TOPICS_MAX) and so is what waits for its client (stream.int.test.ts)
  '/stream': 'not a list',
  '/stream/ticket': 'not a list',
  async '/posts'() {
    const page = await list('/api/posts?page=2');
    expect(lengthOf(page.body, 'posts')).toBe(PAGE_SIZE);
    expect((page.body as { totalCount: number }).totalCount).toBeGreaterThan(UNPAGED_LIST_MAX);
    const range = await list('/api/posts?range=[0,99]');
    expect([lengthOf(range.body), range.range]).toEqual([100, matching(/^posts 0-99\/\d+$/)]);
    expect((await forum.api('/api/posts?range=[0,100]')).status).toBe(400);
  },
  async '/posts/search'() {
    const tagged = await list(`/api/posts/search?tag=${BULK_TAG}`);
    expect([lengthOf(tagged.body), tagged.total]).toEqual([UNPAGED_LIST_MAX, String(UNPAGED_LIST_MAX + OVER)]);
    const searched = await list('/api/posts/search?q=filling');
    expect(lengthOf(searched.body, 'posts')).toBe(PAGE_SIZE);
    expect(searched.body).toMatchObject({ totalCount: UNPAGED_LIST_MAX + OVER, totalCountCapped: false });
  },
  async '/comments/:postId'() {
    const comments = await list(`/api/comments/${postId}`);
    expect([lengthOf(comments.body), comments.total]).toEqual([UNPAGED_LIST_MAX, String(UNPAGED_LIST_MAX + OVER + 1)]);
  },
  async '/posts/:id/comments'() {
    const page = await list(`/api/posts/${postId}/comments`);
    expect(lengthOf(page.body, 'comments')).toBe(COMMENT_PAGE_SIZE);
    expect(page.body).toMatchObject({ nextCursor: anyString, totalCount: UNPAGED_LIST_MAX + OVER + 1 });
    expect(lengthOf((await list(`/api/posts/${postId}/comments?limit=${COMMENT_PAGE_MAX}`)).body, 'comments')).toBe(COMMENT_PAGE_MAX);
    expect((await forum.api(`/api/posts/${postId}/comments?limit=${COMMENT_PAGE_MAX + 1}`)).status).toBe(400);
  },
  async '/posts/:id/revisions'() {
    const revisions = await list(`/api/posts/${postId}/revisions`);
    expect(lengthOf(revisions.body, 'revisions')).toBe(REVISION_LIST_MAX);
    // the newest, oldest first: the first revision and the oldest edits are left out
    const numbers = (revisions.body as { revisions: { number: number }[]; totalCount: number }).revisions.map((revision) => revision.number);
    expect([numbers[0], numbers.at(-1), (revisions.body as { totalCount: number }).totalCount]).toEqual([EDITS + 2 - REVISION_LIST_MAX, EDITS + 1, EDITS + 1]);
  },
  async '/comments/:commentId/revisions'() {
    const revisions = await list(`/api/comments/${commentId}/revisions`);
    expect(lengthOf(revisions.body, 'revisions')).toBe(REVISION_LIST_MAX);
    expect(revisions.body).toMatchObject({ totalCount: EDITS + 1 });
  },
  async '/my-posts/:email'() {
    const mine = await list(`/api/my-posts/${member.email}`, member.token);
    expect([lengthOf(mine.body), mine.total]).toEqual([UNPAGED_LIST_MAX, String(UNPAGED_LIST_MAX + OVER)]);
    expect((mine.body as { title: string }[])[0]!.title).toBe(`Bulk ${UNPAGED_LIST_MAX + OVER - 1}`);
  },
  async '/user-profile/:email'() {
    const profile = await list(`/api/user-profile/${member.email}`);
    expect(lengthOf(profile.body, 'recentPosts')).toBe(RECENT_POSTS);
  },
  async '/users/:id'() {
    const profile = await list(`/api/users/${member.id}`);
    expect(lengthOf(profile.body, 'posts')).toBe(PAGE_SIZE);
    expect(profile.body).toMatchObject({ totalCount: UNPAGED_LIST_MAX + OVER });
  },
  async '/users/handles'() {
    // every handle starts with '': at most HANDLE_SUGGESTIONS_MAX of them
    const handles = await list('/api/users/handles?prefix=', member.token);
    expect(lengthOf(handles.body, 'users')).toBeLessThanOrEqual(HANDLE_SUGGESTIONS_MAX);
  },
  async '/users/top-voted'() {
    expect(lengthOf((await list('/api/users/top-voted')).body)).toBe(LEADERBOARD_SIZE);
  },
  async '/me/notifications'() {
    const mine = await list('/api/me/notifications', member.token);
    expect(lengthOf(mine.body, 'notifications')).toBe(NOTIFICATION_PAGE_SIZE);
    expect(mine.body).toMatchObject({ totalCount: UNPAGED_LIST_MAX + OVER, unread: UNPAGED_LIST_MAX + OVER });
    expect((mine.body as { notifications: { reason: string }[] }).notifications[0]!.reason).toBe(`Warning ${UNPAGED_LIST_MAX + OVER - 1}`);
  },
  async '/admin/reports'() {
    // the member's posts, each reported once, and the comment reported by many: a page of items at a time
    const queue = await list('/api/admin/reports', admin);
    expect(lengthOf(queue.body, 'items')).toBe(ADMIN_PAGE_SIZE);
    const { totalCount } = queue.body as ReportQueue;
    expect(totalCount).toBe(ADMIN_PAGE_SIZE + OVER + 1);
    // the comment reported by many lists its oldest few, and says how many there are
    const pages = await Promise.all(
      times(Math.ceil(totalCount / ADMIN_PAGE_SIZE), async (i) => (await list(`/api/admin/reports?page=${i + 1}`, admin)).body as ReportQueue),
    );
    const reported = pages.flatMap((page) => page.items).find((item) => item._id === commentId)!;
    expect([reported.reports.length, reported.reportCount]).toEqual([QUEUE_REPORTS_SHOWN, UNPAGED_LIST_MAX + OVER]);
  },
  async '/admin/reported-comments'() {
    const reports = await list('/api/admin/reported-comments', admin);
    expect([lengthOf(reports.body), reports.total]).toEqual([UNPAGED_LIST_MAX, String(UNPAGED_LIST_MAX + OVER)]);
    const range = await list('/api/admin/reported-comments?range=[0,9]', admin);
    expect([lengthOf(range.body), range.range]).toEqual([10, `reported-comments 0-9/${UNPAGED_LIST_MAX + OVER}`]);
  },
  async '/me/followed-tags'() {
    const followed = await list('/api/me/followed-tags', member.token);
    expect(lengthOf(followed.body, 'tags')).toBe(TAG_LIST_MAX);
  },
  // one member's answer about one post
  '/posts/:id/follow': 'not a list',
  '/me/notification-preferences': 'not a list',
  async '/announcements'() {
    const news = await list('/api/announcements');
    expect([lengthOf(news.body), news.total]).toEqual([UNPAGED_LIST_MAX, String(UNPAGED_LIST_MAX + OVER)]);
  },
  async '/tags'() {
    const tags = await list('/api/tags');
    expect(lengthOf(tags.body)).toBe(TAG_LIST_MAX);
    expect(Number(tags.total)).toBeGreaterThanOrEqual(TAG_LIST_MAX + OVER);
  },
  async '/admin/tags'() {
    const tags = await list('/api/admin/tags', admin);
    expect(lengthOf(tags.body)).toBe(TAG_LIST_MAX);
    const total = Number(tags.total);
    expect(total).toBeGreaterThanOrEqual(TAG_LIST_MAX + OVER);
    const range = await list('/api/admin/tags?range=[1000,1009]', admin);
    expect([lengthOf(range.body), range.range]).toEqual([Math.min(10, total - 1000), `tags 1000-${1000 + Math.min(10, total - 1000) - 1}/${total}`]);
  },
  async '/admin/users'() {
    const users = await list('/api/admin/users?page=1', admin);
    expect(lengthOf(users.body, 'users')).toBe(ADMIN_PAGE_SIZE);
    expect((users.body as { totalUsers: number }).totalUsers).toBeGreaterThan(ADMIN_PAGE_SIZE + OVER);
    expect((await forum.api('/api/admin/users?range=[0,500]', { token: admin })).status).toBe(400);
  },
  async '/admin/contact-messages'() {
    const messages = await list('/api/admin/contact-messages', admin);
    expect(lengthOf(messages.body, 'messages')).toBe(ADMIN_PAGE_SIZE);
    expect(messages.body).toMatchObject({ totalMessages: ADMIN_PAGE_SIZE + OVER });
  },
  async '/admin/audit'() {
    const audit = await list(`/api/admin/audit?type=TagCreated`, admin);
    expect(lengthOf(audit.body, 'entries')).toBe(ADMIN_PAGE_SIZE);
    expect((audit.body as { total: number }).total).toBeGreaterThanOrEqual(TAG_LIST_MAX + OVER);
  },
  async '/admin/projections'() {
    // one live build of each projection, and a rebuild beside it at most: bounded by the code
    expect(lengthOf((await list('/api/admin/projections', admin)).body)).toBeLessThanOrEqual(2 * allProjections.length);
  },
  async '/admin/history/:kind/:id'() {
    const page = async (query = '') => (await list(`/api/admin/history/user/${member.id}${query}`, admin)).body as History;
    const first = await page();
    expect(first.events).toHaveLength(HISTORY_PAGE_SIZE);
    expect(first.nextAfter).toBe(first.events.at(-1)!.position);
    const rest = await page(`?after=${first.nextAfter}`);
    // their registration (with their handle's claim and change), their name changes and the warnings to them
    expect(rest.events).toHaveLength(3 + HISTORY_PAGE_SIZE + OVER + UNPAGED_LIST_MAX + OVER - HISTORY_PAGE_SIZE);
    expect(rest.nextAfter).toBeNull();
    expect(await page(`?after=${first.nextAfter}&limit=1`)).toMatchObject({ events: [rest.events[0]], nextAfter: rest.events[0]!.position });
    expect(await page('?after=99999999999.99999999999')).toMatchObject({ events: [], nextAfter: null });
    for (const query of ['after=-1', 'after=x', 'after=1.5.2', 'after=', 'limit=0', `limit=${HISTORY_PAGE_SIZE + 1}`, 'limit=x']) {
      expect((await forum.api(`/api/admin/history/user/${member.id}?${query}`, { token: admin })).status, query).toBe(400);
    }
    expect((await forum.api(`/api/admin/history/user/no-such-user?after=1.5`, { token: admin })).status).toBe(404);
  },
  async '/admin/history/:kind/:id/states'() {
    // the states of the same page of the history
    const page = async (query = '') => (await list(`/api/admin/history/user/${member.id}/states${query}`, admin)).body as HistoryStates;
    const first = await page();
    expect(first.states).toHaveLength(HISTORY_PAGE_SIZE);
    const history = (await list(`/api/admin/history/user/${member.id}`, admin)).body as History;
    expect(first.states.map((s) => s.position)).toEqual(history.events.map((e) => e.position));
    expect((await page(`?after=${history.nextAfter}&limit=1`)).states).toHaveLength(1);
  },
  '/admin/history/:kind/:id/state': 'not a list',
  async '/admin/snapshots'() {
    // more snapshots than an unpaged list shows, as forumctl records them
    await migrateSnapshots(forum.db);
    await forum.db.raw(
      `INSERT INTO projections.snapshots (name, tx, pos, at, state, total, requested_by, schemas)
       SELECT 'bounded_' || i, '1', 1, now(), 'ready', 9, 'operator:test', '{}' FROM generate_series(1, ?) AS i`,
      [UNPAGED_LIST_MAX + OVER],
    );
    const all = await list('/api/admin/snapshots', admin);
    expect(lengthOf(all.body)).toBe(UNPAGED_LIST_MAX);
    expect(Number(all.total)).toBe(UNPAGED_LIST_MAX + OVER);
    const range = await list(`/api/admin/snapshots?range=${encodeURIComponent('[0,9]')}`, admin);
    expect(lengthOf(range.body)).toBe(10);
  },
};

describe('every list the API answers is bounded', () => {
  for (const [route, check] of Object.entries(BOUNDS)) {
    if (check === 'not a list') continue;
    it(`GET /api${route}`, check);
  }

  it('the table above names every GET route of the query service', () => {
    const http = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../query-service/src/http');
    const declared = readdirSync(http)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...readFileSync(path.join(http, file), 'utf8').matchAll(/api\.get\(\s*'([^']+)'/g)].map((match) => match[1]!));
    expect(declared.length).toBeGreaterThan(10);
    expect([...new Set(declared)].sort()).toEqual(Object.keys(BOUNDS).sort());
  });
});
