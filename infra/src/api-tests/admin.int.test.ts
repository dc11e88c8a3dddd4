import { ADMIN_PAGE_SIZE, type AdminStats, type AdminTag, type AdminUsersPage, type Announcement, type PostDetail } from '@forum/contracts';
import { anyArray, anyBoolean, anyNumber, anyString, matching, objectContaining } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

let forum: TestForum;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const { after, addTag, deleteTag, makeAdmin, announce } = calls(() => forum);
const { registeredUser } = given(() => forum);
describe('GET /api/users/admin/:email (the admin check)', () => {
  it("answers the caller's own role: false for a user, true for an admin", async () => {
    const user = await registeredUser('Checker');
    expect(await expectStatus(forum.api(`/api/users/admin/${user.email}`, { token: user.token }))).toEqual({ admin: false });
    expect(await expectStatus(forum.api('/api/users/admin/admin@forum.local', { token: admin.token }))).toEqual({ admin: true });
  });

  it("lets an admin check anyone's role (404 for an unknown email)", async () => {
    const user = await registeredUser('Checked');
    expect(await expectStatus(forum.api(`/api/users/admin/${user.email.toUpperCase()}`, { token: admin.token }))).toEqual({ admin: false });
    expect((await forum.api('/api/users/admin/nobody@forum.test', { token: admin.token })).status).toBe(404);
  });

  it("answers 401 without a token, 403 for another user's email, 400 for a non-email", async () => {
    const user = await registeredUser('Nosy');
    expect((await forum.api('/api/users/admin/admin@forum.local')).status).toBe(401);
    expect(await expectStatus(forum.api('/api/users/admin/admin@forum.local', { token: user.token }), 403)).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await forum.api('/api/users/admin/not-an-email', { token: user.token })).status).toBe(400);
  });
});

describe('GET /api/admin/stats', () => {
  it('answers the admin card and the totals from the counter rows, and follows a new post', async () => {
    const before = await expectStatus<AdminStats>(forum.api('/api/admin/stats', { token: admin.token }));
    expect(before.admin).toEqual({ name: 'Forum Admin', email: 'admin@forum.local', photoURL: anyString, role: 'admin' });
    const users = (await forum.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM read.users')).rows[0]!.n;
    expect(before.stats).toEqual({ totalPosts: anyNumber, totalComments: anyNumber, totalUsers: users });
    expect(before.stats.totalPosts).toBeGreaterThanOrEqual(6); // the demo posts

    const author = await registeredUser('Statistician');
    const created = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Counted', description: 'One more', tags: [] } });
    const { position } = await expectStatus<{ position: string }>(created, 201);
    const afterPost = await expectStatus<AdminStats>(forum.api('/api/admin/stats', { token: admin.token, ...after(position) }));
    expect(afterPost.stats).toMatchObject({ totalPosts: before.stats.totalPosts + 1, totalUsers: users + 1 });
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user', async () => {
    const user = await registeredUser('Curious');
    expect((await forum.api('/api/admin/stats')).status).toBe(401);
    expect(await expectStatus(forum.api('/api/admin/stats', { token: user.token }), 403)).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
});

describe('tags in the admin area', () => {
  it('POST /api/admin/tags adds a trimmed tag: 201 {success, tag, position}; both tag lists show it; the event names the admin', async () => {
    const added = await addTag(admin.token, '  Rust  ');
    expect(added.status).toBe(201);
    const body = await expectStatus<{ success: boolean; id: string; tag: AdminTag; position: string }>(added, 201);
    expect(body).toEqual({ success: true, id: anyString, tag: { _id: body.id, name: 'Rust' }, position: anyString });
    expect(added.headers.get('X-Event-Position')).toBe(body.position);
    expect(await expectStatus(forum.api('/api/admin/tags', { token: admin.token, ...after(body.position) }))).toContainEqual({ _id: body.id, name: 'Rust' });
    expect(await expectStatus(forum.api('/api/tags'))).toContain('Rust');
    const { events } = await forum.store.readStream('tags');
    expect(events.at(-1)).toMatchObject({ type: 'TagCreated', data: { tagId: body.id, name: 'Rust' }, metadata: { actorId: admin.id } });
  });

  it('GET /api/admin/tags lists {_id, name}, and speaks react-admin with Content-Range', async () => {
    const tags = await expectStatus<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }));
    expect(tags.length).toBeGreaterThanOrEqual(8); // the demo tags
    const ranged = await forum.api('/api/admin/tags?range=[0,2]', { token: admin.token });
    expect(ranged.headers.get('Content-Range')).toBe(`tags 0-2/${tags.length}`);
    expect(await ranged.json()).toEqual(tags.slice(0, 3).map((t) => ({ id: t._id, ...t })));
    expect((await forum.api('/api/admin/tags')).status).toBe(401);
    expect((await forum.api('/api/admin/tags', { token: (await registeredUser('TagReader')).token })).status).toBe(403);
  });

  it('GET /api/admin/tags with a range past the last tag answers no rows and still counts them all', async () => {
    const tags = await expectStatus<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }));
    const past = await forum.api(`/api/admin/tags?range=[${tags.length},${tags.length + 9}]`, { token: admin.token });
    expect(past.headers.get('Content-Range')).toBe(`tags */${tags.length}`);
    expect(await past.json()).toEqual([]);
  });

  it('DELETE /api/admin/tags/:id removes the tag from both lists; posts keep its text; the name can be added again', async () => {
    const { id } = await expectStatus<{ id: string }>(addTag(admin.token, 'Kotlin'), 201);
    const author = await registeredUser('Kotliner');
    const post = await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Coroutines', description: 'x', tags: ['kotlin'] } }),
      201,
    );

    const removed = await deleteTag(admin.token, id);
    expect(removed.status).toBe(200);
    const body = await expectStatus<{ success: boolean; id: string; position: string }>(removed);
    expect(body).toEqual({ success: true, id, position: anyString });
    const { events } = await forum.store.readStream('tags');
    expect(events.at(-1)).toMatchObject({ type: 'TagDeleted', data: { tagId: id, name: 'Kotlin', deletedAt: anyString }, metadata: { actorId: admin.id } });

    expect(await expectStatus(forum.api('/api/tags', after(body.position)))).not.toContain('Kotlin');
    expect(await expectStatus<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }))).not.toContainEqual({ _id: id, name: 'Kotlin' });
    expect(await expectStatus<PostDetail>(forum.api(`/api/posts/${post.id}`))).toMatchObject({ tags: ['Kotlin'] });
    const refusedPost = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'More', description: 'x', tags: ['Kotlin'] } });
    expect(refusedPost.status).toBe(400);

    const again = await addTag(admin.token, 'kotlin');
    expect(again.status).toBe(201);
    expect((await expectStatus<{ id: string }>(again, 201)).id).not.toBe(id);
  });
});

describe('users in the admin area', () => {
  const marker = `pager${Date.now().toString(36)}`;
  let pagers: { id: string; email: string; token: string }[] = [];

  beforeAll(async () => {
    // ADMIN_PAGE_SIZE + 1 users whose names share a marker, so a search finds exactly them
    pagers = await Promise.all(Array.from({ length: ADMIN_PAGE_SIZE + 1 }, (_, i) => registeredUser(`${marker} ${String(i).padStart(2, '0')}`)));
  });

  it(`GET /api/admin/users answers {users, totalUsers}, ${ADMIN_PAGE_SIZE} a page by name, totalUsers from the counter`, async () => {
    const first = await expectStatus<AdminUsersPage>(forum.api('/api/admin/users?page=1', { token: admin.token }));
    const total = (await forum.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM read.users')).rows[0]!.n;
    expect(first.totalUsers).toBe(total);
    expect(first.users).toHaveLength(ADMIN_PAGE_SIZE);
    expect(first.users[0]).toEqual({
      _id: anyString,
      name: anyString,
      email: anyString,
      // null for a member not given one yet (registered by a command before their registration call)
      handle: first.users[0]!.handle === null ? null : anyString,
      photoURL: anyString,
      role: matching(/^(user|moderator|admin)$/),
      isMember: anyBoolean,
      // the suspension in force (issue #43): none here
      suspension: null,
    });
    const admins = first.users.filter((u) => u.email === 'admin@forum.local');
    expect(admins.every((u) => u.role === 'admin')).toBe(true);
  });

  it('searches name and email, ignoring case, paged with the number of matches', async () => {
    const page1 = await expectStatus<AdminUsersPage>(forum.api(`/api/admin/users?search=${marker.toUpperCase()}`, { token: admin.token }));
    expect(page1.totalUsers).toBe(ADMIN_PAGE_SIZE + 1);
    expect(page1.users.map((u) => u.name)).toEqual(Array.from({ length: ADMIN_PAGE_SIZE }, (_, i) => `${marker} ${String(i).padStart(2, '0')}`));
    const page2 = await expectStatus<AdminUsersPage>(forum.api(`/api/admin/users?search=${marker}&page=2`, { token: admin.token }));
    expect(page2).toEqual({ users: [objectContaining({ name: `${marker} ${ADMIN_PAGE_SIZE}` })], totalUsers: ADMIN_PAGE_SIZE + 1 });
    const byEmail = await expectStatus<AdminUsersPage>(
      forum.api(`/api/admin/users?search=${encodeURIComponent(pagers[3]!.email.slice(-20).toUpperCase())}`, { token: admin.token }),
    );
    expect(byEmail).toEqual({ users: [objectContaining({ _id: pagers[3]!.id, email: pagers[3]!.email })], totalUsers: 1 });
    // LIKE's wildcards are searched as text
    expect(await expectStatus(forum.api('/api/admin/users?search=%25', { token: admin.token }))).toEqual({ users: [], totalUsers: 0 });
  });

  it('speaks react-admin: range, sort and filter {q} with Content-Range', async () => {
    const response = await forum.api(`/api/admin/users?range=[0,4]&sort=["name","DESC"]&filter=${encodeURIComponent(JSON.stringify({ q: marker }))}`, {
      token: admin.token,
    });
    expect(response.headers.get('Content-Range')).toBe(`users 0-4/${ADMIN_PAGE_SIZE + 1}`);
    const rows = (await response.json()) as { id: string; _id: string; name: string }[];
    expect(rows.map((r) => r.name)).toEqual([10, 9, 8, 7, 6].map((i) => `${marker} ${String(i).padStart(2, '0')}`));
    expect(rows[0]!.id).toBe(rows[0]!._id);
  });

  it('answers 401 without a token, 403 for a user, 400 for a bad page', async () => {
    expect((await forum.api('/api/admin/users')).status).toBe(401);
    expect(await expectStatus(forum.api('/api/admin/users', { token: pagers[0]!.token }), 403)).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(await expectStatus(forum.api('/api/admin/users?page=0', { token: admin.token }), 400)).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { page: anyArray } },
    });
  });

  it("PATCH make-admin grants the role by an event naming the admin; the user's admin check then says true", async () => {
    const user = pagers[0]!;
    const granted = await makeAdmin(admin.token, user.id);
    expect(granted.status).toBe(200);
    const { id, position } = await expectStatus<{ id: string; position: string }>(granted);
    expect(id).toBe(user.id);
    const { events } = await forum.store.readStream(`user-${user.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'AdminRoleGranted', data: { userId: user.id, reason: 'admin' }, metadata: { actorId: admin.id } });
    expect(await expectStatus(forum.api(`/api/users/admin/${user.email}`, { token: user.token, ...after(position) }))).toEqual({ admin: true });
    expect((await forum.api('/api/admin/stats', { token: user.token })).status).toBe(200);
  });
});

describe('announcements', () => {
  it('POST /api/admin/announcements publishes as the admin; GET /api/announcements (public) lists newest first', async () => {
    const first = await announce(admin.token, { title: ' Welcome ', description: 'Be kind.' });
    expect(first.status).toBe(201);
    const { id: firstId } = await expectStatus<{ id: string; position: string }>(first, 201);
    const second = await announce(admin.token, { title: 'Maintenance', description: 'Tonight 22:00' });
    const { id, position } = await expectStatus<{ id: string; position: string }>(second, 201);
    const { events } = await forum.store.readStream(`announcement-${id}`);
    expect(events).toEqual([
      objectContaining({
        type: 'AnnouncementPublished',
        data: {
          announcementId: id,
          title: 'Maintenance',
          description: 'Tonight 22:00',
          authorId: admin.id,
          authorName: 'Forum Admin',
          authorPhoto: anyString,
          publishedAt: anyString,
        },
        metadata: objectContaining({ actorId: admin.id }),
      }),
    ]);
    const list = await expectStatus<Announcement[]>(forum.api('/api/announcements', after(position)));
    expect(list.slice(0, 2)).toEqual([
      { _id: id, title: 'Maintenance', description: 'Tonight 22:00', authorName: 'Forum Admin', authorPhoto: anyString, date: anyString },
      { _id: firstId, title: 'Welcome', description: 'Be kind.', authorName: 'Forum Admin', authorPhoto: anyString, date: anyString },
    ]);
  });
});
