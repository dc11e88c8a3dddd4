import {
  commentLink,
  DELETED_USER_NAME,
  followsStream,
  NOTIFICATION_PAGE_SIZE,
  postLink,
  type ActivityItem,
  type FollowedTags,
  type Notifications,
  type PostFollowing,
} from '@forum/contracts';
import { anyString, matching } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * The notification centre (GET /api/me/notifications, docs/notifications.md) over the whole forum:
 * what the notifications projection fanned out from the log, read with names, titles and excerpts
 * joined as they are now; marking read; a member's follows.
 */
let forum: TestForum;
let admin: { id: string; token: string };
let ann: NewUser;
let ben: NewUser;
let cy: NewUser;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
  [ann, ben, cy] = [await forum.newUser('Ann Notified'), await forum.newUser('Ben Notified'), await forum.newUser('Cy Notified')];
  for (const user of [ann, ben, cy]) await forum.register(user.token);
  for (const user of [ann, ben, cy]) await forum.call('PATCH', `/api/users/membership/${user.email}`, { token: admin.token });
}, 60_000);
afterAll(() => forum?.stop());

const post = async (by: NewUser, title: string, description = 'About it') =>
  forum.call<{ id: string }>('POST', '/api/posts', { token: by.token, body: { title, description, tags: [] }, expect: 201 });
const comment = async (by: NewUser, postId: string, text: string) =>
  forum.call<{ id: string }>('POST', '/api/comments', { token: by.token, body: { postId, text }, expect: 201 });
const notifications = async (user: { token: string }, query = '') => forum.call<Notifications>('GET', `/api/me/notifications${query}`, { token: user.token });
const activity = async (user: { token: string }, postId: string) =>
  (await notifications(user)).notifications.filter((n): n is ActivityItem & { kind: 'reply' } => n.kind !== 'warning' && n.postId === postId);

describe('GET /api/me/notifications', () => {
  it('shows a comment on the member’s post as a reply, collapses the next ones while unread, and a commenter’s followed post', async () => {
    const { id: postId } = await post(ann, 'Ann asks');
    const first = await comment(ben, postId, 'Ben **answers** at length');
    expect(await activity(ann, postId)).toEqual([
      {
        _id: anyString,
        kind: 'reply',
        postId,
        postTitle: 'Ann asks',
        commentId: first.id,
        count: 1,
        actor: { _id: ben.id, name: ben.name, handle: anyString, photoURL: '' },
        excerpt: 'Ben answers at length',
        createdAt: anyString,
        read: false,
        link: commentLink(postId, first.id),
      },
    ]);
    await comment(cy, postId, 'Cy too');
    const [collapsed] = await activity(ann, postId);
    expect(collapsed).toMatchObject({ count: 2, commentId: first.id, actor: { name: cy.name }, read: false });
    // Ben commented: he follows the post, and hears of Cy's comment; Cy hears of nothing of their own
    expect(await activity(ben, postId)).toMatchObject([{ kind: 'followed-post', count: 1, actor: { name: cy.name } }]);
    expect(await activity(cy, postId)).toEqual([]);
    expect(await forum.call<PostFollowing>('GET', `/api/posts/${postId}/follow`, { token: ben.token })).toEqual({ following: true });
    expect(await forum.call<PostFollowing>('GET', `/api/posts/${postId}/follow`, { token: admin.token })).toEqual({ following: false });

    // read: the next comment starts another notification
    await forum.call('POST', '/api/me/notifications/read', { token: ann.token, body: { ids: [collapsed!._id] } });
    const before = await notifications(ann);
    await comment(ben, postId, 'One more');
    const after = await notifications(ann);
    expect(after.unread).toBe(before.unread + 1);
    expect((await activity(ann, postId)).map((n) => [n.count, n.read])).toEqual([
      [1, false],
      [2, true],
    ]);
    // all read: the unread count falls to nothing, and only unread ones are listed with unread=true
    await forum.call('POST', '/api/me/notifications/read', { token: ann.token });
    expect(await notifications(ann, '?unread=true')).toMatchObject({ notifications: [], unread: 0, totalCount: 0, page: 1 });
  });

  it('reads a removed comment and a deleted post as gone (link null, no excerpt), and an erased actor as Deleted user', async () => {
    const gone = await forum.newUser('Gone Soon');
    await forum.register(gone.token);
    const { id: postId } = await post(cy, 'Cy asks');
    const removed = await comment(ben, postId, 'Removed later');
    await comment(gone, postId, 'From someone who leaves');
    await forum.call('DELETE', `/api/admin/comments/${removed.id}`, { token: admin.token });
    await forum.call('DELETE', '/api/me', { token: gone.token, body: { content: 'keep' } });
    const [item] = await activity(cy, postId);
    expect(item).toMatchObject({ count: 2, commentId: removed.id, link: null, excerpt: '', actor: { _id: null, name: DELETED_USER_NAME, handle: null } });

    const { id: deleted } = await post(cy, 'Deleted later');
    await comment(ben, deleted, 'On a post that goes');
    await forum.call('DELETE', `/api/my-posts/${deleted}`, { token: cy.token });
    expect(await activity(cy, deleted)).toMatchObject([{ postTitle: '', link: null }]);
  });

  it('pages every kind newest first, NOTIFICATION_PAGE_SIZE a page, warnings with them', async () => {
    const member = await forum.newUser('Many Notified');
    await forum.register(member.token);
    await forum.call('PATCH', `/api/users/membership/${member.email}`, { token: admin.token });
    const posts = [];
    for (let i = 0; i < NOTIFICATION_PAGE_SIZE + 1; i++) posts.push((await post(member, `Post ${i}`)).id);
    for (const postId of posts) await comment(ben, postId, 'Hello');
    await forum.call('POST', `/api/admin/warn-user/${encodeURIComponent(member.email)}`, { token: admin.token, body: { reason: 'Last' }, expect: 201 });
    const first = await notifications(member);
    expect(first).toMatchObject({ unread: NOTIFICATION_PAGE_SIZE + 2, totalCount: NOTIFICATION_PAGE_SIZE + 2, page: 1 });
    expect(first.notifications).toHaveLength(NOTIFICATION_PAGE_SIZE);
    expect(first.notifications[0]).toMatchObject({ kind: 'warning', reason: 'Last' });
    expect(first.notifications[1]).toMatchObject({ kind: 'reply', postId: posts.at(-1), link: matching(new RegExp(`^${postLink(posts.at(-1)!)}#comment-`)) });
    const second = await notifications(member, '?page=2');
    expect(second.notifications.map((n) => n.kind === 'reply' && n.postId)).toEqual([posts[1], posts[0]]);
  });

  it('refuses a visitor (401) and a bad page or unread flag (400)', async () => {
    expect((await forum.api('/api/me/notifications')).status).toBe(401);
    expect((await forum.api('/api/me/notifications?page=0', { token: ann.token })).status).toBe(400);
    expect((await forum.api('/api/me/notifications?unread=maybe', { token: ann.token })).status).toBe(400);
  });
});

describe("a member's follows", () => {
  it('GET /api/posts/:id/follow and GET /api/me/followed-tags answer what the log says; a visitor 401, an unknown post 404', async () => {
    const { id: postId } = await post(ann, 'Followed by choice');
    await forum.store.append([
      {
        streamId: followsStream(cy.id),
        expectedVersion: 'any',
        events: [
          { type: 'PostFollowed', data: { userId: cy.id, postId, at: new Date().toISOString() }, metadata: meta(cy.id) },
          { type: 'TagFollowed', data: { userId: cy.id, tag: 'Zebra', at: new Date().toISOString() }, metadata: meta(cy.id) },
          { type: 'TagFollowed', data: { userId: cy.id, tag: 'apple', at: new Date().toISOString() }, metadata: meta(cy.id) },
          { type: 'PostUnfollowed', data: { userId: ann.id, postId, at: new Date().toISOString() }, metadata: meta(ann.id) },
        ],
      },
    ]);
    // a comment after the log's follows: read once it is applied
    await comment(ben, postId, 'Seen by Cy, not by Ann');
    expect(await forum.call<PostFollowing>('GET', `/api/posts/${postId}/follow`, { token: cy.token })).toEqual({ following: true });
    expect(await forum.call<PostFollowing>('GET', `/api/posts/${postId}/follow`, { token: ann.token })).toEqual({ following: false });
    expect(await activity(cy, postId)).toMatchObject([{ kind: 'followed-post' }]);
    expect(await activity(ann, postId)).toEqual([]);
    expect(await forum.call<FollowedTags>('GET', '/api/me/followed-tags', { token: cy.token })).toEqual({ tags: ['apple', 'Zebra'] });
    expect(await forum.call<FollowedTags>('GET', '/api/me/followed-tags', { token: ann.token })).toEqual({ tags: [] });
    expect((await forum.api(`/api/posts/${postId}/follow`)).status).toBe(401);
    expect((await forum.api('/api/me/followed-tags')).status).toBe(401);
    expect((await forum.api('/api/posts/00000000-0000-4000-8000-000000000000/follow', { token: ann.token })).status).toBe(404);
  });
});

const meta = (actorId: string) => ({ actorId, correlationId: crypto.randomUUID(), causationId: null, requestId: null, schemaVersion: 1 });
