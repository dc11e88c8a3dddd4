import {
  ADMIN_PAGE_SIZE,
  HEADER_MIN_POSITION,
  TAG_NAME_MAX,
  type AdminStats,
  type AdminTag,
  type AdminUsersPage,
  type Announcement,
  type AuditPage,
  type ErrorBody,
  type History,
  type PostDetail,
} from '@forum/contracts';
import { runForumctl } from '@forum/projections/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const eventCount = () => forum.eventCount();
const after = (position: string) => ({ headers: { [HEADER_MIN_POSITION]: position } });
const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
/** A new user the forum knows (registered by a first read). */
async function registeredUser(name: string) {
  const user = await forum.newUser(name);
  await forum.api('/api/me', { token: user.token });
  return user;
}
/** Runs `call` and expects `status` with `code`, and that it appended no event. */
async function refused(call: () => Promise<Response>, status: number, code?: string): Promise<ErrorBody> {
  const before = await eventCount();
  const response = await call();
  expect(response.status).toBe(status);
  const body = (await response.json()) as ErrorBody;
  if (code) expect(body.error.code).toBe(code);
  expect(await eventCount()).toBe(before);
  return body;
}
const addTag = (token: string | undefined, name: unknown) => forum.api('/api/admin/tags', { method: 'POST', ...(token && { token }), json: { name } });
const deleteTag = (token: string | undefined, id: string) => forum.api(`/api/admin/tags/${id}`, { method: 'DELETE', ...(token && { token }) });
const makeAdmin = (token: string | undefined, userId: string) =>
  forum.api(`/api/admin/users/make-admin/${encodeURIComponent(userId)}`, { method: 'PATCH', ...(token && { token }) });
const announce = (token: string | undefined, body: unknown) => forum.api('/api/admin/announcements', { method: 'POST', ...(token && { token }), json: body });

describe('GET /api/users/admin/:email (the admin check)', () => {
  it("answers the caller's own role: false for a user, true for an admin", async () => {
    const user = await registeredUser('Checker');
    expect(await json(forum.api(`/api/users/admin/${user.email}`, { token: user.token }))).toEqual({ admin: false });
    expect(await json(forum.api('/api/users/admin/admin@forum.local', { token: admin.token }))).toEqual({ admin: true });
  });

  it("lets an admin check anyone's role (404 for an unknown email)", async () => {
    const user = await registeredUser('Checked');
    expect(await json(forum.api(`/api/users/admin/${user.email.toUpperCase()}`, { token: admin.token }))).toEqual({ admin: false });
    expect((await forum.api('/api/users/admin/nobody@forum.test', { token: admin.token })).status).toBe(404);
  });

  it("answers 401 without a token, 403 for another user's email, 400 for a non-email", async () => {
    const user = await registeredUser('Nosy');
    expect((await forum.api('/api/users/admin/admin@forum.local')).status).toBe(401);
    expect(await json(forum.api('/api/users/admin/admin@forum.local', { token: user.token }))).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await forum.api('/api/users/admin/not-an-email', { token: user.token })).status).toBe(400);
  });
});

describe('GET /api/admin/stats', () => {
  it('answers the admin card and the totals from the counter rows, and follows a new post', async () => {
    const before = await json<AdminStats>(forum.api('/api/admin/stats', { token: admin.token }));
    expect(before.admin).toEqual({ name: 'Forum Admin', email: 'admin@forum.local', photoURL: expect.any(String), role: 'admin' });
    const users = (await forum.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM read.users')).rows[0]!.n;
    expect(before.stats).toEqual({ totalPosts: expect.any(Number), totalComments: expect.any(Number), totalUsers: users });
    expect(before.stats.totalPosts).toBeGreaterThanOrEqual(6); // the demo posts

    const author = await registeredUser('Statistician');
    const created = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Counted', description: 'One more', tags: [] } });
    const { position } = await json<{ position: string }>(created);
    const afterPost = await json<AdminStats>(forum.api('/api/admin/stats', { token: admin.token, ...after(position) }));
    expect(afterPost.stats).toMatchObject({ totalPosts: before.stats.totalPosts + 1, totalUsers: users + 1 });
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user', async () => {
    const user = await registeredUser('Curious');
    expect((await forum.api('/api/admin/stats')).status).toBe(401);
    expect(await json(forum.api('/api/admin/stats', { token: user.token }))).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
});

describe('tags in the admin area', () => {
  it('POST /api/admin/tags adds a trimmed tag: 201 {success, tag, position}; both tag lists show it; the event names the admin', async () => {
    const added = await addTag(admin.token, '  Rust  ');
    expect(added.status).toBe(201);
    const body = await json<{ success: boolean; id: string; tag: AdminTag; position: string }>(added);
    expect(body).toEqual({ success: true, id: expect.any(String), tag: { _id: body.id, name: 'Rust' }, position: expect.any(String) });
    expect(added.headers.get('X-Event-Position')).toBe(body.position);
    expect(await json(forum.api('/api/admin/tags', { token: admin.token, ...after(body.position) }))).toContainEqual({ _id: body.id, name: 'Rust' });
    expect(await json(forum.api('/api/tags'))).toContain('Rust');
    const { events } = await forum.store.readStream('tags');
    expect(events.at(-1)).toMatchObject({ type: 'TagCreated', data: { tagId: body.id, name: 'Rust' }, metadata: { actorId: admin.id } });
  });

  it('refuses a name that exists in another case with 409 TAG_EXISTS, and appends nothing', async () => {
    await refused(() => addTag(admin.token, 'react'), 409, 'TAG_EXISTS');
  });

  it('adds one tag when five admins add the same new name at once: one 201, four 409', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => addTag(admin.token, 'Elixir')));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it.each([
    ['missing', undefined],
    ['blank', '   '],
    ['not text', 42],
    [`longer than ${TAG_NAME_MAX}`, 'x'.repeat(TAG_NAME_MAX + 1)],
  ])('refuses a %s name with 400 on name, and appends nothing', async (_case, name) => {
    const body = await refused(() => addTag(admin.token, name), 400, 'VALIDATION_FAILED');
    expect(Object.keys(body.error.details!)).toEqual(['name']);
  });

  it(`#28.9 refuses an 80-character name with 400 VALIDATION_FAILED and the rule's message, never cutting it to ${TAG_NAME_MAX} and adding it`, async () => {
    const name = 'Eighty'.repeat(14).slice(0, 80);
    const body = await refused(() => addTag(admin.token, name), 400, 'VALIDATION_FAILED');
    expect(body.error.details).toEqual({ name: [`Tag name must be at most ${TAG_NAME_MAX} characters`] });
    const names = (await json<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }))).map((tag) => tag.name.toLowerCase());
    expect(names).not.toContain(name.slice(0, TAG_NAME_MAX).toLowerCase());
    expect(names).not.toContain(name.toLowerCase());
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user, appending nothing', async () => {
    const user = await registeredUser('Tagger');
    await refused(() => addTag(undefined, 'Go'), 401, 'UNAUTHENTICATED');
    await refused(() => addTag(user.token, 'Go'), 403, 'FORBIDDEN');
  });

  it('GET /api/admin/tags lists {_id, name}, and speaks react-admin with Content-Range', async () => {
    const tags = await json<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }));
    expect(tags.length).toBeGreaterThanOrEqual(8); // the demo tags
    const ranged = await forum.api('/api/admin/tags?range=[0,2]', { token: admin.token });
    expect(ranged.headers.get('Content-Range')).toBe(`tags 0-2/${tags.length}`);
    expect(await ranged.json()).toEqual(tags.slice(0, 3).map((t) => ({ id: t._id, ...t })));
    expect((await forum.api('/api/admin/tags')).status).toBe(401);
    expect((await forum.api('/api/admin/tags', { token: (await registeredUser('TagReader')).token })).status).toBe(403);
  });

  it('GET /api/admin/tags with a range past the last tag answers no rows and still counts them all', async () => {
    const tags = await json<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }));
    const past = await forum.api(`/api/admin/tags?range=[${tags.length},${tags.length + 9}]`, { token: admin.token });
    expect(past.headers.get('Content-Range')).toBe(`tags */${tags.length}`);
    expect(await past.json()).toEqual([]);
  });

  it('DELETE /api/admin/tags/:id removes the tag from both lists; posts keep its text; the name can be added again', async () => {
    const { id } = await json<{ id: string }>(addTag(admin.token, 'Kotlin'));
    const author = await registeredUser('Kotliner');
    const post = await json<{ id: string }>(forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Coroutines', description: 'x', tags: ['kotlin'] } }));

    const removed = await deleteTag(admin.token, id);
    expect(removed.status).toBe(200);
    const body = await json<{ success: boolean; id: string; position: string }>(removed);
    expect(body).toEqual({ success: true, id, position: expect.any(String) });
    const { events } = await forum.store.readStream('tags');
    expect(events.at(-1)).toMatchObject({ type: 'TagDeleted', data: { tagId: id, name: 'Kotlin', deletedAt: expect.any(String) }, metadata: { actorId: admin.id } });

    expect(await json(forum.api('/api/tags', after(body.position)))).not.toContain('Kotlin');
    expect(await json<AdminTag[]>(forum.api('/api/admin/tags', { token: admin.token }))).not.toContainEqual({ _id: id, name: 'Kotlin' });
    expect(await json<PostDetail>(forum.api(`/api/posts/${post.id}`))).toMatchObject({ tags: ['Kotlin'] });
    const refusedPost = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'More', description: 'x', tags: ['Kotlin'] } });
    expect(refusedPost.status).toBe(400);

    const again = await addTag(admin.token, 'kotlin');
    expect(again.status).toBe(201);
    expect((await json<{ id: string }>(again)).id).not.toBe(id);
  });

  it('DELETE answers 404 for an unknown or already deleted tag, 400 for a non-id, 401/403 — appending nothing', async () => {
    const { id } = await json<{ id: string }>(addTag(admin.token, 'Scala'));
    expect((await deleteTag(admin.token, id)).status).toBe(200);
    await refused(() => deleteTag(admin.token, id), 404, 'NOT_FOUND');
    await refused(() => deleteTag(admin.token, '00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    await refused(() => deleteTag(admin.token, 'scala'), 400, 'VALIDATION_FAILED');
    const { id: live } = await json<{ id: string }>(addTag(admin.token, 'Haskell'));
    await refused(() => deleteTag(undefined, live), 401, 'UNAUTHENTICATED');
    const user = await registeredUser('Untagger');
    await refused(() => deleteTag(user.token, live), 403, 'FORBIDDEN');
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
    const first = await json<AdminUsersPage>(forum.api('/api/admin/users?page=1', { token: admin.token }));
    const total = (await forum.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM read.users')).rows[0]!.n;
    expect(first.totalUsers).toBe(total);
    expect(first.users).toHaveLength(ADMIN_PAGE_SIZE);
    expect(first.users[0]).toEqual({ _id: expect.any(String), name: expect.any(String), email: expect.any(String), photoURL: expect.any(String), role: expect.stringMatching(/^(user|admin)$/), isMember: expect.any(Boolean) });
    const admins = first.users.filter((u) => u.email === 'admin@forum.local');
    expect(admins.every((u) => u.role === 'admin')).toBe(true);
  });

  it('searches name and email, ignoring case, paged with the number of matches', async () => {
    const page1 = await json<AdminUsersPage>(forum.api(`/api/admin/users?search=${marker.toUpperCase()}`, { token: admin.token }));
    expect(page1.totalUsers).toBe(ADMIN_PAGE_SIZE + 1);
    expect(page1.users.map((u) => u.name)).toEqual(Array.from({ length: ADMIN_PAGE_SIZE }, (_, i) => `${marker} ${String(i).padStart(2, '0')}`));
    const page2 = await json<AdminUsersPage>(forum.api(`/api/admin/users?search=${marker}&page=2`, { token: admin.token }));
    expect(page2).toEqual({ users: [expect.objectContaining({ name: `${marker} ${ADMIN_PAGE_SIZE}` })], totalUsers: ADMIN_PAGE_SIZE + 1 });
    const byEmail = await json<AdminUsersPage>(forum.api(`/api/admin/users?search=${encodeURIComponent(pagers[3]!.email.slice(-20).toUpperCase())}`, { token: admin.token }));
    expect(byEmail).toEqual({ users: [expect.objectContaining({ _id: pagers[3]!.id, email: pagers[3]!.email })], totalUsers: 1 });
    // LIKE's wildcards are searched as text
    expect(await json(forum.api('/api/admin/users?search=%25', { token: admin.token }))).toEqual({ users: [], totalUsers: 0 });
  });

  it('speaks react-admin: range, sort and filter {q} with Content-Range', async () => {
    const response = await forum.api(`/api/admin/users?range=[0,4]&sort=["name","DESC"]&filter=${encodeURIComponent(JSON.stringify({ q: marker }))}`, { token: admin.token });
    expect(response.headers.get('Content-Range')).toBe(`users 0-4/${ADMIN_PAGE_SIZE + 1}`);
    const rows = (await response.json()) as { id: string; _id: string; name: string }[];
    expect(rows.map((r) => r.name)).toEqual([10, 9, 8, 7, 6].map((i) => `${marker} ${String(i).padStart(2, '0')}`));
    expect(rows[0]!.id).toBe(rows[0]!._id);
  });

  it('answers 401 without a token, 403 for a user, 400 for a bad page', async () => {
    expect((await forum.api('/api/admin/users')).status).toBe(401);
    expect(await json(forum.api('/api/admin/users', { token: pagers[0]!.token }))).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(await json(forum.api('/api/admin/users?page=0', { token: admin.token }))).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { page: expect.any(Array) } } });
  });

  it("PATCH make-admin grants the role by an event naming the admin; the user's admin check then says true", async () => {
    const user = pagers[0]!;
    const granted = await makeAdmin(admin.token, user.id);
    expect(granted.status).toBe(200);
    const { id, position } = await json<{ id: string; position: string }>(granted);
    expect(id).toBe(user.id);
    const { events } = await forum.store.readStream(`user-${user.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'AdminRoleGranted', data: { userId: user.id, reason: 'admin' }, metadata: { actorId: admin.id } });
    expect(await json(forum.api(`/api/users/admin/${user.email}`, { token: user.token, ...after(position) }))).toEqual({ admin: true });
    expect((await forum.api('/api/admin/stats', { token: user.token })).status).toBe(200);
  });

  it('making an admin admin again is a no-op: 200 without a position, nothing appended', async () => {
    const user = pagers[1]!;
    await makeAdmin(admin.token, user.id);
    const before = await eventCount();
    const again = await makeAdmin(admin.token, user.id);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id: user.id });
    expect(again.headers.get('X-Event-Position')).toBeNull();
    expect(await json(makeAdmin(admin.token, admin.id))).toEqual({ id: admin.id });
    expect(await eventCount()).toBe(before);
  });

  it('answers 404 for an unknown user, 401 without a token, 403 for a user — appending nothing', async () => {
    await refused(() => makeAdmin(admin.token, 'no-such-user'), 404, 'NOT_FOUND');
    await refused(() => makeAdmin(undefined, pagers[2]!.id), 401, 'UNAUTHENTICATED');
    await refused(() => makeAdmin(pagers[3]!.token, pagers[3]!.id), 403, 'FORBIDDEN');
  });
});

describe('announcements', () => {
  it('POST /api/admin/announcements publishes as the admin; GET /api/announcements (public) lists newest first', async () => {
    const first = await announce(admin.token, { title: ' Welcome ', description: 'Be kind.' });
    expect(first.status).toBe(201);
    const { id: firstId } = await json<{ id: string; position: string }>(first);
    const second = await announce(admin.token, { title: 'Maintenance', description: 'Tonight 22:00' });
    const { id, position } = await json<{ id: string; position: string }>(second);
    const { events } = await forum.store.readStream(`announcement-${id}`);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'AnnouncementPublished',
        data: { announcementId: id, title: 'Maintenance', description: 'Tonight 22:00', authorId: admin.id, authorName: 'Forum Admin', authorPhoto: expect.any(String), publishedAt: expect.any(String) },
        metadata: expect.objectContaining({ actorId: admin.id }),
      }),
    ]);
    const list = await json<Announcement[]>(forum.api('/api/announcements', after(position)));
    expect(list.slice(0, 2)).toEqual([
      { _id: id, title: 'Maintenance', description: 'Tonight 22:00', authorName: 'Forum Admin', authorPhoto: expect.any(String), date: expect.any(String) },
      { _id: firstId, title: 'Welcome', description: 'Be kind.', authorName: 'Forum Admin', authorPhoto: expect.any(String), date: expect.any(String) },
    ]);
  });

  it("refuses a missing or blank title and description with 400 and spec §5's messages, appending nothing", async () => {
    const missing = await refused(() => announce(admin.token, {}), 400, 'VALIDATION_FAILED');
    expect(missing.error.details).toEqual({ title: ['Title is required'], description: ['Description is required'] });
    const blank = await refused(() => announce(admin.token, { title: '  ', description: 'ok' }), 400, 'VALIDATION_FAILED');
    expect(blank.error.details).toEqual({ title: ['Title is required'] });
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user, appending nothing', async () => {
    await refused(() => announce(undefined, { title: 't', description: 'd' }), 401, 'UNAUTHENTICATED');
    const user = await registeredUser('Herald');
    await refused(() => announce(user.token, { title: 't', description: 'd' }), 403, 'FORBIDDEN');
  });
});

describe('the staff action log (GET /api/admin/audit)', () => {
  it('lists a make-admin, a tag creation and deletion and an announcement, newest first, with the acting admin', async () => {
    // a fresh admin, so the log filtered by them holds exactly what this test does
    const chief = await registeredUser('Chief Auditor');
    const deputy = await registeredUser('Deputy');
    expect((await makeAdmin(admin.token, chief.id)).status).toBe(200);
    await makeAdmin(chief.token, deputy.id);
    const tag = await json<{ id: string }>(addTag(chief.token, 'Audited'));
    await deleteTag(chief.token, tag.id);
    const announced = await json<{ id: string; position: string }>(announce(chief.token, { title: 'Audit me', description: 'Please' }));

    const log = await json<AuditPage>(forum.api(`/api/admin/audit?actor=${encodeURIComponent(chief.email)}`, { token: admin.token, ...after(announced.position) }));
    const actor = { id: chief.id, name: 'Chief Auditor', email: chief.email };
    expect(log).toEqual({
      total: 4,
      entries: [
        { _id: expect.any(String), at: expect.any(String), actor, type: 'AnnouncementPublished', target: { type: 'announcement', id: announced.id }, summary: 'Published the announcement "Audit me"' },
        { _id: expect.any(String), at: expect.any(String), actor, type: 'TagDeleted', target: { type: 'tag', id: tag.id }, summary: 'Deleted the tag #Audited' },
        { _id: expect.any(String), at: expect.any(String), actor, type: 'TagCreated', target: { type: 'tag', id: tag.id }, summary: 'Created the tag #Audited' },
        { _id: expect.any(String), at: expect.any(String), actor, type: 'AdminRoleGranted', target: { type: 'user', id: deputy.id }, summary: 'Made Deputy an admin' },
      ],
    });
    const ats = log.entries.map((e) => Date.parse(e.at));
    expect(ats).toEqual([...ats].sort((a, b) => b - a));

    // by id and by type; the chief's own promotion is the demo admin's action
    expect((await json<AuditPage>(forum.api(`/api/admin/audit?actor=${chief.id}&type=TagCreated`, { token: admin.token }))).entries).toHaveLength(1);
    const byAdmin = await json<AuditPage>(forum.api('/api/admin/audit?actor=admin@forum.local&type=AdminRoleGranted', { token: admin.token }));
    expect(byAdmin.entries).toContainEqual(
      expect.objectContaining({ actor: { id: admin.id, name: 'Forum Admin', email: 'admin@forum.local' }, target: { type: 'user', id: chief.id }, summary: 'Made Chief Auditor an admin' }),
    );
    expect(byAdmin.entries.every((e) => e.type === 'AdminRoleGranted')).toBe(true);
  });

  it("lists an admin's deletion of someone's post, not an author's deletion of their own, nor the demo data's grants", async () => {
    const author = await registeredUser('Poster');
    const own = await json<{ id: string }>(forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Mine', description: 'x', tags: [] } }));
    const other = await json<{ id: string }>(forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Theirs', description: 'x', tags: [] } }));
    await forum.api(`/api/my-posts/${own.id}`, { method: 'DELETE', token: author.token });
    const { position } = await json<{ position: string }>(forum.api(`/api/my-posts/${other.id}`, { method: 'DELETE', token: admin.token }));
    const deletions = await json<AuditPage>(forum.api('/api/admin/audit?type=PostDeleted', { token: admin.token, ...after(position) }));
    const targets = deletions.entries.map((e) => e.target.id);
    expect(targets).toContain(other.id);
    expect(targets).not.toContain(own.id);
    expect(deletions.entries.find((e) => e.target.id === other.id)).toMatchObject({ actor: { id: admin.id }, summary: 'Deleted a post by Poster' });
    const grants = await json<AuditPage>(forum.api('/api/admin/audit?type=AdminRoleGranted', { token: admin.token }));
    expect(grants.entries.map((e) => e.target.id)).not.toContain(admin.id); // granted by the demo data
  });

  it('lists an admin removing a comment and warning its author, naming the author as they were called', async () => {
    const author = await registeredUser('Commenter');
    const post = await json<{ id: string }>(forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Heated', description: 'x', tags: [] } }));
    const comment = await json<{ id: string }>(forum.api('/api/comments', { method: 'POST', token: author.token, json: { postId: post.id, text: 'Rude words' } }));
    expect((await forum.api(`/api/admin/comments/${comment.id}`, { method: 'DELETE', token: admin.token })).ok).toBe(true);
    const warned = await forum.api(`/api/admin/warn-user/${author.email}`, { method: 'POST', token: admin.token, json: { reason: 'Be kind', commentId: comment.id } });
    expect(warned.ok).toBe(true);
    const { position } = await json<{ position: string }>(warned);
    const log = await json<AuditPage>(forum.api(`/api/admin/audit?actor=${admin.id}`, { token: admin.token, ...after(position) }));
    expect(log.entries.slice(0, 2)).toEqual([
      expect.objectContaining({ type: 'UserWarned', actor: expect.objectContaining({ id: admin.id }), target: { type: 'user', id: author.id }, summary: 'Warned Commenter: Be kind' }),
      expect.objectContaining({ type: 'CommentRemoved', actor: expect.objectContaining({ id: admin.id }), target: { type: 'comment', id: comment.id }, summary: 'Removed a comment by Commenter' }),
    ]);
  });

  it(`pages by ${ADMIN_PAGE_SIZE}, answers react-admin with Content-Range, 400 for an unknown type, 401/403`, async () => {
    // the demo data's 8 tags and these 3 make more than a page
    let position = '';
    for (const name of ['Paged1', 'Paged2', 'Paged3']) position = (await json<{ position: string }>(addTag(admin.token, name))).position;
    const all = await json<AuditPage>(forum.api('/api/admin/audit', { token: admin.token, ...after(position) }));
    expect(all.entries).toHaveLength(ADMIN_PAGE_SIZE);
    expect(all.total).toBeGreaterThan(ADMIN_PAGE_SIZE);
    const page2 = await json<AuditPage>(forum.api('/api/admin/audit?page=2', { token: admin.token }));
    expect(page2.entries[0]!._id).not.toBe(all.entries[0]!._id);
    const ranged = await forum.api(`/api/admin/audit?range=[0,1]&filter=${encodeURIComponent('{"type":"TagCreated"}')}`, { token: admin.token });
    expect(ranged.headers.get('Content-Range')).toMatch(/^audit 0-1\/\d+$/);
    expect(((await ranged.json()) as { type: string }[]).map((e) => e.type)).toEqual(['TagCreated', 'TagCreated']);
    expect(await json(forum.api('/api/admin/audit?type=Bogus', { token: admin.token }))).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { type: expect.any(Array) } } });
    expect(await json(forum.api('/api/admin/audit?actor=nobody@forum.test', { token: admin.token }))).toEqual({ entries: [], total: 0 });
    expect((await json<AuditPage>(forum.api('/api/admin/audit?actor=&type=', { token: admin.token }))).total).toBe(all.total);
    expect((await forum.api('/api/admin/audit')).status).toBe(401);
    expect((await forum.api('/api/admin/audit', { token: (await registeredUser('Snoop')).token })).status).toBe(403);
  });
});

describe('the staff action log by date (since/until on GET /api/admin/audit)', () => {
  /** `at` (an ISO instant) written with a +02:00 offset: the same instant. */
  const plusTwo = (at: string) => `${new Date(Date.parse(at) + 2 * 3600_000).toISOString().slice(0, -1)}+02:00`;
  const day = (at: string, days = 0) => new Date(Date.parse(at.slice(0, 10)) + days * 86_400_000).toISOString().slice(0, 10);

  it('keeps the entries from `since` and up to `until` (inclusive, to the millisecond; a date alone is its whole UTC day), totals counted', async () => {
    const clerk = await registeredUser('Dated Clerk');
    await makeAdmin(admin.token, clerk.id);
    let position = '';
    for (const name of ['Dated1', 'Dated2', 'Dated3']) position = (await json<{ position: string }>(addTag(clerk.token, name))).position;
    const all = await json<AuditPage>(forum.api(`/api/admin/audit?actor=${clerk.id}`, { token: admin.token, ...after(position) }));
    expect(all.entries.map((e) => e.summary)).toEqual(['Created the tag #Dated3', 'Created the tag #Dated2', 'Created the tag #Dated1']);
    const [third, second, first] = all.entries.map((e) => e.at) as [string, string, string];
    const log = async (query: string) => {
      const page = await json<AuditPage>(forum.api(`/api/admin/audit?actor=${clerk.id}&${query}`, { token: admin.token }));
      return { total: page.total, tags: page.entries.map((e) => e.summary.replace('Created the tag #', '')) };
    };

    expect(await log(`since=${encodeURIComponent(second)}`)).toEqual({ total: 2, tags: ['Dated3', 'Dated2'] });
    expect(await log(`until=${encodeURIComponent(second)}`)).toEqual({ total: 2, tags: ['Dated2', 'Dated1'] });
    expect(await log(`since=${encodeURIComponent(second)}&until=${encodeURIComponent(second)}`)).toEqual({ total: 1, tags: ['Dated2'] });
    // the same instants with an offset
    expect(await log(`since=${encodeURIComponent(plusTwo(second))}&until=${encodeURIComponent(plusTwo(second))}`)).toEqual({ total: 1, tags: ['Dated2'] });
    // dates: the whole days, in UTC
    expect(await log(`since=${day(first)}&until=${day(third)}`)).toEqual({ total: 3, tags: ['Dated3', 'Dated2', 'Dated1'] });
    expect(await log(`since=${day(third, 1)}`)).toEqual({ total: 0, tags: [] });
    expect(await log(`until=${day(first, -1)}`)).toEqual({ total: 0, tags: [] });
    // with the type filter, and empty values are no filter
    expect(await log(`type=TagCreated&since=${encodeURIComponent(third)}&until=`)).toEqual({ total: 1, tags: ['Dated3'] });

    // react-admin's filter JSON takes the same fields
    const filter = encodeURIComponent(JSON.stringify({ actor: clerk.id, since: second, until: third }));
    const ranged = await forum.api(`/api/admin/audit?range=[0,0]&filter=${filter}`, { token: admin.token });
    expect(ranged.headers.get('Content-Range')).toBe('audit 0-0/2');
    expect(((await ranged.json()) as { summary: string }[]).map((e) => e.summary)).toEqual(['Created the tag #Dated3']);
  });

  it('answers 400 VALIDATION_FAILED with the field for a bound that is not an ISO date, has no time zone, or ends before it starts', async () => {
    const bad = async (query: string) => {
      const response = await forum.api(`/api/admin/audit?${query}`, { token: admin.token });
      expect(response.status, query).toBe(400);
      return ((await response.json()) as ErrorBody).error;
    };
    expect(await bad('since=yesterday')).toMatchObject({ code: 'VALIDATION_FAILED', details: { since: [expect.stringContaining('ISO 8601')] } });
    expect(await bad('until=2026-02-30')).toMatchObject({ code: 'VALIDATION_FAILED', details: { until: [expect.stringContaining('ISO 8601')] } });
    expect(await bad('since=2026-05-01T10:00:00')).toMatchObject({ code: 'VALIDATION_FAILED', details: { since: expect.any(Array) } });
    expect(await bad('since=2026-05-02&until=2026-05-01')).toMatchObject({ code: 'VALIDATION_FAILED', details: { until: ['Until must not be before since'] } });
    expect(await bad(`range=[0,9]&filter=${encodeURIComponent('{"since":"soon"}')}`)).toMatchObject({ code: 'VALIDATION_FAILED', details: { since: expect.any(Array) } });
    expect(await bad(`range=[0,9]&filter=${encodeURIComponent('{"type":"Bogus"}')}`)).toMatchObject({ code: 'VALIDATION_FAILED', details: { type: expect.any(Array) } });
  });
});

describe('the history of a user or a post (GET /api/admin/history/:kind/:id)', () => {
  it("answers a post's events oldest first, with position, time, type, actor, correlation id and data, as forumctl history does", async () => {
    const author = await registeredUser('Chronicled');
    const created = await forum.api('/api/posts', { method: 'POST', token: author.token, headers: { 'X-Correlation-Id': 'corr-admin-history' }, json: { title: 'A life', description: 'x', tags: ['React'] } });
    const { id } = await json<{ id: string }>(created);
    const deleted = await json<{ position: string }>(forum.api(`/api/my-posts/${id}`, { method: 'DELETE', token: admin.token }));

    // read at the deletion's position: the log as its readers see it holds no transaction still running
    const response = await forum.api(`/api/admin/history/post/${id}`, { token: admin.token, ...after(deleted.position) });
    expect(response.status).toBe(200);
    const history = (await response.json()) as History;
    expect(history).toEqual({
      kind: 'post',
      id,
      events: [
        {
          position: expect.stringMatching(/^\d+\.\d+$/),
          streamId: `post-${id}`,
          version: 1,
          at: expect.any(String),
          type: 'PostCreated',
          actor: author.id,
          correlationId: 'corr-admin-history',
          data: expect.objectContaining({ postId: id, title: 'A life', authorId: author.id, tags: ['React'] }),
        },
        { position: expect.any(String), streamId: `post-${id}`, version: 2, at: expect.any(String), type: 'PostDeleted', actor: admin.id, correlationId: expect.any(String), data: expect.objectContaining({ postId: id, deletedBy: admin.id }) },
      ],
      // who the actors are, from the users read model
      actors: { [author.id]: { name: 'Chronicled', email: author.email }, [admin.id]: { name: 'Forum Admin', email: 'admin@forum.local' } },
      nextAfter: null,
    });
    const positions = history.events.map((e) => BigInt(e.position.split('.')[1]!));
    expect(positions[1]! > positions[0]!).toBe(true);
    expect(Date.parse(history.events[1]!.at)).toBeGreaterThanOrEqual(Date.parse(history.events[0]!.at));

    // the same entries as the operator CLI's (one code path)
    let out = '';
    expect(await runForumctl(['history', '--post', id, '--json'], forum.databaseUrl, { out: (t) => (out += t), err: () => {} })).toBe(0);
    expect(JSON.parse(out)).toEqual(history.events);
  });

  it("answers a user's history from their registration on", async () => {
    const member = await registeredUser('Biographed');
    const { position } = await json<{ position: string }>(forum.api('/api/posts', { method: 'POST', token: member.token, json: { title: 'Mine', description: 'x', tags: [] } }));
    const history = await json<History>(forum.api(`/api/admin/history/user/${encodeURIComponent(member.id)}`, { token: admin.token, ...after(position) }));
    expect(history).toMatchObject({ kind: 'user', id: member.id });
    expect(history.events[0]).toMatchObject({ type: 'UserRegistered', streamId: `user-${member.id}`, version: 1, data: expect.objectContaining({ userId: member.id, email: member.email }) });
    expect(history.events.map((e) => e.type)).toEqual(expect.arrayContaining(['PostCreated', 'PostAuthored']));
    expect(history.actors[member.id]).toEqual({ name: 'Biographed', email: member.email });
  });

  it('answers 404 for an id with no history, 400 for a bad kind or id, 401 without a token and 403 for a user', async () => {
    const notFound = await forum.api('/api/admin/history/post/6f1c2f9e-2b7a-4c1e-9a63-2f0f8d7c6b5a', { token: admin.token });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'No such post' } });
    expect(await json(forum.api('/api/admin/history/user/nobody-at-all', { token: admin.token }))).toMatchObject({ error: { code: 'NOT_FOUND', message: 'No such user' } });

    const badKind = await forum.api(`/api/admin/history/comment/${admin.id}`, { token: admin.token });
    expect(badKind.status).toBe(400);
    expect(await badKind.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { kind: ['Kind must be user or post'] } } });
    expect(await json(forum.api('/api/admin/history/post/not-a-uuid', { token: admin.token }))).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { id: ['Not a post id'] } } });
    expect((await forum.api(`/api/admin/history/user/${encodeURIComponent('two words')}`, { token: admin.token })).status).toBe(400);

    expect((await forum.api(`/api/admin/history/user/${admin.id}`)).status).toBe(401);
    const user = await registeredUser('Curious');
    const denied = await forum.api(`/api/admin/history/user/${user.id}`, { token: user.token });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
});
