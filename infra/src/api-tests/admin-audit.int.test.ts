import { ADMIN_PAGE_SIZE, type AuditPage, type ErrorBody, type History } from '@forum/contracts';
import { anyArray, anyString, arrayContaining, containing, matching, objectContaining } from '@forum/platform/testing';
import { runForumctl } from '../ops/forumctl.ts';
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

describe('the staff action log (GET /api/admin/audit)', () => {
  it('lists a make-admin, a tag creation and deletion and an announcement, newest first, with the acting admin', async () => {
    // a fresh admin, so the log filtered by them holds exactly what this test does
    const chief = await registeredUser('Chief Auditor');
    const deputy = await registeredUser('Deputy');
    expect((await makeAdmin(admin.token, chief.id)).status).toBe(200);
    await makeAdmin(chief.token, deputy.id);
    const tag = await expectStatus<{ id: string }>(addTag(chief.token, 'Audited'), 201);
    await deleteTag(chief.token, tag.id);
    const announced = await expectStatus<{ id: string; position: string }>(announce(chief.token, { title: 'Audit me', description: 'Please' }), 201);

    const log = await expectStatus<AuditPage>(
      forum.api(`/api/admin/audit?actor=${encodeURIComponent(chief.email)}`, { token: admin.token, ...after(announced.position) }),
    );
    const actor = { id: chief.id, name: 'Chief Auditor', email: chief.email };
    expect(log).toEqual({
      total: 4,
      entries: [
        {
          _id: anyString,
          at: anyString,
          actor,
          type: 'AnnouncementPublished',
          target: { type: 'announcement', id: announced.id },
          summary: 'Published the announcement "Audit me"',
        },
        { _id: anyString, at: anyString, actor, type: 'TagDeleted', target: { type: 'tag', id: tag.id }, summary: 'Deleted the tag #Audited' },
        { _id: anyString, at: anyString, actor, type: 'TagCreated', target: { type: 'tag', id: tag.id }, summary: 'Created the tag #Audited' },
        { _id: anyString, at: anyString, actor, type: 'AdminRoleGranted', target: { type: 'user', id: deputy.id }, summary: 'Made Deputy an admin' },
      ],
    });
    const ats = log.entries.map((e) => Date.parse(e.at));
    expect(ats).toEqual([...ats].sort((a, b) => b - a));

    // by id and by type; the chief's own promotion is the demo admin's action
    expect((await expectStatus<AuditPage>(forum.api(`/api/admin/audit?actor=${chief.id}&type=TagCreated`, { token: admin.token }))).entries).toHaveLength(1);
    const byAdmin = await expectStatus<AuditPage>(forum.api('/api/admin/audit?actor=admin@forum.local&type=AdminRoleGranted', { token: admin.token }));
    expect(byAdmin.entries).toContainEqual(
      objectContaining({
        actor: { id: admin.id, name: 'Forum Admin', email: 'admin@forum.local' },
        target: { type: 'user', id: chief.id },
        summary: 'Made Chief Auditor an admin',
      }),
    );
    expect(byAdmin.entries.every((e) => e.type === 'AdminRoleGranted')).toBe(true);
  });

  it("lists an admin's deletion of someone's post, not an author's deletion of their own, nor the demo data's grants", async () => {
    const author = await registeredUser('Poster');
    const own = await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Mine', description: 'x', tags: [] } }),
      201,
    );
    const other = await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Theirs', description: 'x', tags: [] } }),
      201,
    );
    await forum.api(`/api/my-posts/${own.id}`, { method: 'DELETE', token: author.token });
    const { position } = await expectStatus<{ position: string }>(forum.api(`/api/my-posts/${other.id}`, { method: 'DELETE', token: admin.token }));
    const deletions = await expectStatus<AuditPage>(forum.api('/api/admin/audit?type=PostDeleted', { token: admin.token, ...after(position) }));
    const targets = deletions.entries.map((e) => e.target.id);
    expect(targets).toContain(other.id);
    expect(targets).not.toContain(own.id);
    expect(deletions.entries.find((e) => e.target.id === other.id)).toMatchObject({ actor: { id: admin.id }, summary: 'Deleted a post by Poster' });
    const grants = await expectStatus<AuditPage>(forum.api('/api/admin/audit?type=AdminRoleGranted', { token: admin.token }));
    expect(grants.entries.map((e) => e.target.id)).not.toContain(admin.id); // granted by the demo data
  });

  it('lists an admin removing a comment and warning its author, naming the author as they were called', async () => {
    const author = await registeredUser('Commenter');
    const post = await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Heated', description: 'x', tags: [] } }),
      201,
    );
    const comment = await expectStatus<{ id: string }>(
      forum.api('/api/comments', { method: 'POST', token: author.token, json: { postId: post.id, text: 'Rude words' } }),
      201,
    );
    expect((await forum.api(`/api/admin/comments/${comment.id}`, { method: 'DELETE', token: admin.token })).ok).toBe(true);
    const warned = await forum.api(`/api/admin/warn-user/${author.email}`, {
      method: 'POST',
      token: admin.token,
      json: { reason: 'Be kind', commentId: comment.id },
    });
    expect(warned.ok).toBe(true);
    const { position } = await expectStatus<{ position: string }>(warned, 201);
    const log = await expectStatus<AuditPage>(forum.api(`/api/admin/audit?actor=${admin.id}`, { token: admin.token, ...after(position) }));
    expect(log.entries.slice(0, 2)).toEqual([
      objectContaining({
        type: 'UserWarned',
        actor: objectContaining({ id: admin.id }),
        target: { type: 'user', id: author.id },
        summary: 'Warned Commenter: Be kind',
      }),
      objectContaining({
        type: 'CommentRemoved',
        actor: objectContaining({ id: admin.id }),
        target: { type: 'comment', id: comment.id },
        summary: 'Removed a comment by Commenter',
      }),
    ]);
  });

  it(`pages by ${ADMIN_PAGE_SIZE}, answers react-admin with Content-Range, 400 for an unknown type, 401/403`, async () => {
    // the demo data's 8 tags and these 3 make more than a page
    let position = '';
    for (const name of ['Paged1', 'Paged2', 'Paged3']) position = (await expectStatus<{ position: string }>(addTag(admin.token, name), 201)).position;
    const all = await expectStatus<AuditPage>(forum.api('/api/admin/audit', { token: admin.token, ...after(position) }));
    expect(all.entries).toHaveLength(ADMIN_PAGE_SIZE);
    expect(all.total).toBeGreaterThan(ADMIN_PAGE_SIZE);
    const page2 = await expectStatus<AuditPage>(forum.api('/api/admin/audit?page=2', { token: admin.token }));
    expect(page2.entries[0]!._id).not.toBe(all.entries[0]!._id);
    const ranged = await forum.api(`/api/admin/audit?range=[0,1]&filter=${encodeURIComponent('{"type":"TagCreated"}')}`, { token: admin.token });
    expect(ranged.headers.get('Content-Range')).toMatch(/^audit 0-1\/\d+$/);
    expect(((await ranged.json()) as { type: string }[]).map((e) => e.type)).toEqual(['TagCreated', 'TagCreated']);
    expect(await expectStatus(forum.api('/api/admin/audit?type=Bogus', { token: admin.token }), 400)).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { type: anyArray } },
    });
    expect(await expectStatus(forum.api('/api/admin/audit?actor=nobody@forum.test', { token: admin.token }))).toEqual({ entries: [], total: 0 });
    expect((await expectStatus<AuditPage>(forum.api('/api/admin/audit?actor=&type=', { token: admin.token }))).total).toBe(all.total);
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
    for (const name of ['Dated1', 'Dated2', 'Dated3']) position = (await expectStatus<{ position: string }>(addTag(clerk.token, name), 201)).position;
    const all = await expectStatus<AuditPage>(forum.api(`/api/admin/audit?actor=${clerk.id}`, { token: admin.token, ...after(position) }));
    expect(all.entries.map((e) => e.summary)).toEqual(['Created the tag #Dated3', 'Created the tag #Dated2', 'Created the tag #Dated1']);
    const [third, second, first] = all.entries.map((e) => e.at) as [string, string, string];
    const log = async (query: string) => {
      const page = await expectStatus<AuditPage>(forum.api(`/api/admin/audit?actor=${clerk.id}&${query}`, { token: admin.token }));
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
    expect(await bad('since=yesterday')).toMatchObject({ code: 'VALIDATION_FAILED', details: { since: [containing('ISO 8601')] } });
    expect(await bad('until=2026-02-30')).toMatchObject({ code: 'VALIDATION_FAILED', details: { until: [containing('ISO 8601')] } });
    expect(await bad('since=2026-05-01T10:00:00')).toMatchObject({ code: 'VALIDATION_FAILED', details: { since: anyArray } });
    expect(await bad('since=2026-05-02&until=2026-05-01')).toMatchObject({ code: 'VALIDATION_FAILED', details: { until: ['Until must not be before since'] } });
    expect(await bad(`range=[0,9]&filter=${encodeURIComponent('{"since":"soon"}')}`)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { since: anyArray },
    });
    expect(await bad(`range=[0,9]&filter=${encodeURIComponent('{"type":"Bogus"}')}`)).toMatchObject({ code: 'VALIDATION_FAILED', details: { type: anyArray } });
  });
});

describe('the history of a user or a post (GET /api/admin/history/:kind/:id)', () => {
  it("answers a post's events oldest first, with position, time, type, actor, correlation id and data, as forumctl history does", async () => {
    const author = await registeredUser('Chronicled');
    const created = await forum.api('/api/posts', {
      method: 'POST',
      token: author.token,
      headers: { 'X-Correlation-Id': 'corr-admin-history' },
      json: { title: 'A life', description: 'x', tags: ['React'] },
    });
    const { id } = await expectStatus<{ id: string }>(created, 201);
    const deleted = await expectStatus<{ position: string }>(forum.api(`/api/my-posts/${id}`, { method: 'DELETE', token: admin.token }));

    // read at the deletion's position: the log as its readers see it holds no transaction still running
    const response = await forum.api(`/api/admin/history/post/${id}`, { token: admin.token, ...after(deleted.position) });
    expect(response.status).toBe(200);
    const history = (await response.json()) as History;
    expect(history).toEqual({
      kind: 'post',
      id,
      events: [
        {
          position: matching(/^\d+\.\d+$/),
          streamId: `post-${id}`,
          version: 1,
          at: anyString,
          type: 'PostCreated',
          actor: author.id,
          correlationId: 'corr-admin-history',
          data: objectContaining({ postId: id, title: 'A life', authorId: author.id, tags: ['React'] }),
        },
        {
          position: anyString,
          streamId: `post-${id}`,
          version: 2,
          at: anyString,
          type: 'PostDeleted',
          actor: admin.id,
          correlationId: anyString,
          data: objectContaining({ postId: id, deletedBy: admin.id }),
        },
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
    const { position } = await expectStatus<{ position: string }>(
      forum.api('/api/posts', { method: 'POST', token: member.token, json: { title: 'Mine', description: 'x', tags: [] } }),
      201,
    );
    const history = await expectStatus<History>(
      forum.api(`/api/admin/history/user/${encodeURIComponent(member.id)}`, { token: admin.token, ...after(position) }),
    );
    expect(history).toMatchObject({ kind: 'user', id: member.id });
    // the registration's append: the handle's claim on its own stream, then the user's record
    expect(history.events.slice(0, 3).map((e) => e.type)).toEqual(['HandleClaimed', 'UserRegistered', 'HandleChanged']);
    expect(history.events[1]).toMatchObject({
      type: 'UserRegistered',
      streamId: `user-${member.id}`,
      version: 1,
      data: objectContaining({ userId: member.id, email: member.email }),
    });
    expect(history.events.map((e) => e.type)).toEqual(arrayContaining(['PostCreated', 'PostAuthored']));
    expect(history.actors[member.id]).toEqual({ name: 'Biographed', email: member.email });
  });

  it('answers 404 for an id with no history, 400 for a bad kind or id, 401 without a token and 403 for a user', async () => {
    const notFound = await forum.api('/api/admin/history/post/6f1c2f9e-2b7a-4c1e-9a63-2f0f8d7c6b5a', { token: admin.token });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'No such post' } });
    expect(await expectStatus(forum.api('/api/admin/history/user/nobody-at-all', { token: admin.token }), 404)).toMatchObject({
      error: { code: 'NOT_FOUND', message: 'No such user' },
    });

    const badKind = await forum.api(`/api/admin/history/comment/${admin.id}`, { token: admin.token });
    expect(badKind.status).toBe(400);
    expect(await badKind.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { kind: ['Kind must be user or post'] } } });
    expect(await expectStatus(forum.api('/api/admin/history/post/not-a-uuid', { token: admin.token }), 400)).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { id: ['Not a post id'] } },
    });
    expect((await forum.api(`/api/admin/history/user/${encodeURIComponent('two words')}`, { token: admin.token })).status).toBe(400);

    expect((await forum.api(`/api/admin/history/user/${admin.id}`)).status).toBe(401);
    const user = await registeredUser('Curious');
    const denied = await forum.api(`/api/admin/history/user/${user.id}`, { token: user.token });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
});
