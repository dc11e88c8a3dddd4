import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeSecret, unsubscribeTokens } from '@forum/platform';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { securityHeaderProblems } from '../testing/security-headers.ts';

/**
 * Every endpoint × visitor, user, member and admin, with the status each must
 * answer. Personal endpoints appear twice: on the caller's own resource and
 * on someone else's. A cell that needs something to act on makes it fresh, so
 * its status says who may call, not what an earlier cell left behind.
 */
type Role = 'visitor' | 'user' | 'member' | 'admin';
const ROLES: Role[] = ['visitor', 'user', 'member', 'admin'];
interface Caller {
  token?: string;
  email: string;
  id: string;
}
interface Call {
  method: string;
  path: string;
  json?: unknown;
  /** Another caller for this cell (a fresh account), when the row's own state would change. */
  as?: Caller;
}
type Row = [name: string, call: (caller: Caller) => Promise<Call> | Call, expected: [number, number, number, number]];

let forum: TestForum;
const callers = {} as Record<Role, Caller>;
let owner: Caller & { token: string };
let postId: string;
let commentId: string;
let announcementId: string;
let unsubscribeToken: string;

async function fresh(name: string): Promise<Caller & { token: string }> {
  return forum.newUser(name);
}
async function postBy(who: { token?: string }) {
  return (
    await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: who.token!, json: { title: 'Matrix', description: 'x', tags: [] } }),
      201,
    )
  ).id;
}
async function commentBy(who: { token?: string }, onPost = postId) {
  return (
    await expectStatus<{ id: string }>(forum.api('/api/comments', { method: 'POST', token: who.token!, json: { postId: onPost, text: 'A comment' } }), 201)
  ).id;
}
const admin = () => ({ token: callers.admin.token });

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '0' });
  const user = await fresh('Matrix User');
  const member = await fresh('Matrix Member');
  await forum.api(`/api/users/membership/${member.email}`, { method: 'PATCH', token: member.token });
  const adminToken = await forum.tokenFor('admin@forum.local');
  const adminMe = await expectStatus<{ _id: string }>(forum.api('/api/me', { token: adminToken }));
  callers.visitor = { email: 'visitor@forum.test', id: 'none' };
  callers.user = user;
  callers.member = member;
  callers.admin = { token: adminToken, email: 'admin@forum.local', id: adminMe._id };
  owner = await fresh('Matrix Owner');
  // a member, so the fixtures this owner keeps making are not stopped by the free limit
  await forum.api(`/api/users/membership/${owner.email}`, { method: 'PATCH', token: owner.token });
  postId = await postBy(owner);
  commentId = await commentBy(owner);
  unsubscribeToken = unsubscribeTokens(await unsubscribeSecret(forum.db)).sign({ userId: owner.id, kinds: ['reply'] });
  announcementId = (
    await expectStatus<{ id: string }>(
      forum.api('/api/admin/announcements', { method: 'POST', token: adminToken, json: { title: 'News', description: 'Text' } }),
      201,
    )
  ).id;
});
afterAll(() => forum?.stop());

const rows: Row[] = [
  // public reads
  ['GET /api/posts', () => ({ method: 'GET', path: '/api/posts?page=1' }), [200, 200, 200, 200]],
  ['GET /api/posts/:id', () => ({ method: 'GET', path: `/api/posts/${postId}` }), [200, 200, 200, 200]],
  ['GET /api/posts/search?tag', () => ({ method: 'GET', path: '/api/posts/search?tag=React' }), [200, 200, 200, 200]],
  ['GET /api/posts/search?q', () => ({ method: 'GET', path: '/api/posts/search?q=matrix' }), [200, 200, 200, 200]],
  ['GET /api/tags', () => ({ method: 'GET', path: '/api/tags' }), [200, 200, 200, 200]],
  ['GET /api/comments/:postId', () => ({ method: 'GET', path: `/api/comments/${postId}` }), [200, 200, 200, 200]],
  ['GET /api/users/top-voted', () => ({ method: 'GET', path: '/api/users/top-voted' }), [200, 200, 200, 200]],
  ['GET /api/user-profile/:email', () => ({ method: 'GET', path: `/api/user-profile/${owner.email}` }), [200, 200, 200, 200]],
  ['GET /api/users/:id', () => ({ method: 'GET', path: `/api/users/${owner.id}` }), [200, 200, 200, 200]],
  ['GET /api/users/handles', () => ({ method: 'GET', path: '/api/users/handles?prefix=mat' }), [401, 200, 200, 200]],
  ['GET /api/announcements', () => ({ method: 'GET', path: '/api/announcements' }), [200, 200, 200, 200]],
  [
    'POST /api/contact',
    () => ({ method: 'POST', path: '/api/contact', json: { name: 'Ann', email: 'ann@forum.test', message: 'Hello' } }),
    [201, 201, 201, 201],
  ],
  // an email's one-click unsubscribe: the signed link is the proof, whoever posts it
  ['POST /api/unsubscribe', () => ({ method: 'POST', path: `/api/unsubscribe?token=${unsubscribeToken}` }), [200, 200, 200, 200]],
  // a user's own things
  ['POST /api/posts', () => ({ method: 'POST', path: '/api/posts', json: { title: 'Mine', description: 'x', tags: [] } }), [401, 201, 201, 201]],
  [
    'DELETE /api/my-posts/:id (own post)',
    async (c) => ({ method: 'DELETE', path: `/api/my-posts/${c.token ? await postBy(c) : await postBy(owner)}` }),
    [401, 200, 200, 200],
  ],
  ["DELETE /api/my-posts/:id (another's post)", async () => ({ method: 'DELETE', path: `/api/my-posts/${await postBy(owner)}` }), [401, 403, 403, 200]],
  [
    'PATCH /api/posts/:id (own post)',
    async (c) => ({ method: 'PATCH', path: `/api/posts/${await postBy(c.token ? c : owner)}`, json: { title: 'Edited' } }),
    [401, 200, 200, 200],
  ],
  [
    "PATCH /api/posts/:id (another's post, with a reason)",
    async () => ({ method: 'PATCH', path: `/api/posts/${await postBy(owner)}`, json: { title: 'Edited', reason: 'Tidy up' } }),
    [401, 403, 403, 200],
  ],
  ['PUT /api/posts/:id/vote', () => ({ method: 'PUT', path: `/api/posts/${postId}/vote`, json: { vote: 'up' } }), [401, 200, 200, 200]],
  [
    'PATCH /api/posts/:id/vote',
    async () => ({ method: 'PATCH', path: `/api/posts/${await postBy(owner)}/vote`, json: { likeChange: 1, dislikeChange: 0 } }),
    [401, 200, 200, 200],
  ],
  ['PUT /api/posts/:id/follow', () => ({ method: 'PUT', path: `/api/posts/${postId}/follow` }), [401, 200, 200, 200]],
  ['DELETE /api/posts/:id/follow', () => ({ method: 'DELETE', path: `/api/posts/${postId}/follow` }), [401, 200, 200, 200]],
  ['PUT /api/tags/:name/follow', () => ({ method: 'PUT', path: '/api/tags/React/follow' }), [401, 200, 200, 200]],
  ['DELETE /api/tags/:name/follow', () => ({ method: 'DELETE', path: '/api/tags/React/follow' }), [401, 200, 200, 200]],
  ['POST /api/comments', () => ({ method: 'POST', path: '/api/comments', json: { postId, text: 'Hi' } }), [401, 201, 201, 201]],
  [
    'PATCH /api/comments/:id (own comment)',
    async (c) => ({ method: 'PATCH', path: `/api/comments/${await commentBy(c.token ? c : owner)}`, json: { text: 'Edited' } }),
    [401, 200, 200, 200],
  ],
  [
    "PATCH /api/comments/:id (another's comment, with a reason)",
    async () => ({ method: 'PATCH', path: `/api/comments/${await commentBy(owner)}`, json: { text: 'Edited', reason: 'Tidy up' } }),
    [401, 403, 403, 200],
  ],
  ['POST /api/comments/:id/report', () => ({ method: 'POST', path: `/api/comments/${commentId}/report`, json: { feedback: 'spam' } }), [401, 201, 201, 201]],
  ['GET /api/me', () => ({ method: 'GET', path: '/api/me' }), [401, 200, 200, 200]],
  ['PATCH /api/me', () => ({ method: 'PATCH', path: '/api/me', json: { displayName: `Renamed ${randomUUID().slice(0, 4)}` } }), [401, 200, 200, 200]],
  ['POST /api/me/registration', () => ({ method: 'POST', path: '/api/me/registration' }), [401, 200, 200, 200]],
  ['GET /api/me/notifications', () => ({ method: 'GET', path: '/api/me/notifications' }), [401, 200, 200, 200]],
  ['GET /api/me/followed-tags', () => ({ method: 'GET', path: '/api/me/followed-tags' }), [401, 200, 200, 200]],
  ['GET /api/posts/:id/follow', () => ({ method: 'GET', path: `/api/posts/${postId}/follow` }), [401, 200, 200, 200]],
  ['POST /api/me/notifications/read', () => ({ method: 'POST', path: '/api/me/notifications/read', json: {} }), [401, 200, 200, 200]],
  ['POST /api/me/announcements/read', () => ({ method: 'POST', path: '/api/me/announcements/read', json: { announcementId } }), [401, 200, 200, 200]],
  ['GET /api/me/notification-preferences', () => ({ method: 'GET', path: '/api/me/notification-preferences' }), [401, 200, 200, 200]],
  [
    'PUT /api/me/notification-preferences',
    () => ({ method: 'PUT', path: '/api/me/notification-preferences', json: { mention: 'digest' } }),
    [401, 200, 200, 200],
  ],
  ['GET /api/my-posts/:email (own)', (c) => ({ method: 'GET', path: `/api/my-posts/${c.email}` }), [401, 200, 200, 200]],
  ["GET /api/my-posts/:email (another's)", () => ({ method: 'GET', path: `/api/my-posts/${owner.email}` }), [401, 403, 403, 200]],
  ['GET /api/user-post-count/:email (own)', (c) => ({ method: 'GET', path: `/api/user-post-count/${c.email}` }), [401, 200, 200, 200]],
  ["GET /api/user-post-count/:email (another's)", () => ({ method: 'GET', path: `/api/user-post-count/${owner.email}` }), [401, 403, 403, 200]],
  ['GET /api/users/admin/:email (own)', (c) => ({ method: 'GET', path: `/api/users/admin/${c.email}` }), [401, 200, 200, 200]],
  ["GET /api/users/admin/:email (another's)", () => ({ method: 'GET', path: `/api/users/admin/${owner.email}` }), [401, 403, 403, 200]],
  // membership: a free user and the (free) admin buy; a member is refused; a fresh account each time so cells don't change the shared callers
  [
    'PATCH /api/users/membership/:email (own)',
    async (c) => {
      if (!c.token) return { method: 'PATCH', path: `/api/users/membership/${owner.email}` };
      if (c === callers.member) return { method: 'PATCH', path: `/api/users/membership/${c.email}` };
      const buyer = await fresh('Buyer');
      return { method: 'PATCH', path: `/api/users/membership/${buyer.email}`, as: buyer };
    },
    [401, 200, 409, 200],
  ],
  [
    "PATCH /api/users/membership/:email (another's)",
    async () => {
      const gifted = await fresh('Gifted');
      await forum.register(gifted.token); // known to the forum
      return { method: 'PATCH', path: `/api/users/membership/${gifted.email}` };
    },
    [401, 403, 403, 200],
  ],
  // admin only
  ['GET /api/admin/stats', () => ({ method: 'GET', path: '/api/admin/stats' }), [401, 403, 403, 200]],
  ['GET /api/admin/tags', () => ({ method: 'GET', path: '/api/admin/tags' }), [401, 403, 403, 200]],
  ['POST /api/admin/tags', () => ({ method: 'POST', path: '/api/admin/tags', json: { name: `t-${randomUUID().slice(0, 8)}` } }), [401, 403, 403, 201]],
  [
    'DELETE /api/admin/tags/:id',
    async () => {
      const made = await expectStatus<{ tag: { _id: string } }>(
        forum.api('/api/admin/tags', { method: 'POST', ...admin(), json: { name: `d-${randomUUID().slice(0, 8)}` } }),
        201,
      );
      return { method: 'DELETE', path: `/api/admin/tags/${made.tag._id}` };
    },
    [401, 403, 403, 200],
  ],
  ['GET /api/admin/users', () => ({ method: 'GET', path: '/api/admin/users?page=1' }), [401, 403, 403, 200]],
  [
    'PATCH /api/admin/users/make-admin/:userId',
    async () => {
      const target = await fresh('Candidate');
      await forum.register(target.token);
      return { method: 'PATCH', path: `/api/admin/users/make-admin/${target.id}` };
    },
    [401, 403, 403, 200],
  ],
  ['GET /api/admin/reported-comments', () => ({ method: 'GET', path: '/api/admin/reported-comments' }), [401, 403, 403, 200]],
  ['DELETE /api/admin/comments/:id', async () => ({ method: 'DELETE', path: `/api/admin/comments/${await commentBy(owner)}` }), [401, 403, 403, 200]],
  [
    'POST /api/admin/warn-user/:email',
    () => ({ method: 'POST', path: `/api/admin/warn-user/${owner.email}`, json: { reason: 'Be kind' } }),
    [401, 403, 403, 201],
  ],
  [
    'POST /api/admin/announcements',
    () => ({ method: 'POST', path: '/api/admin/announcements', json: { title: 'News', description: 'Text' } }),
    [401, 403, 403, 201],
  ],
  ['GET /api/admin/contact-messages', () => ({ method: 'GET', path: '/api/admin/contact-messages' }), [401, 403, 403, 200]],
  ['GET /api/admin/audit', () => ({ method: 'GET', path: '/api/admin/audit' }), [401, 403, 403, 200]],
  ['GET /api/admin/history/user/:id', () => ({ method: 'GET', path: `/api/admin/history/user/${owner.id}` }), [401, 403, 403, 200]],
  ['GET /api/admin/history/post/:id', () => ({ method: 'GET', path: `/api/admin/history/post/${postId}` }), [401, 403, 403, 200]],
  ['GET /api/admin/history/user/:id/states', () => ({ method: 'GET', path: `/api/admin/history/user/${owner.id}/states` }), [401, 403, 403, 200]],
  ['GET /api/admin/history/post/:id/state', () => ({ method: 'GET', path: `/api/admin/history/post/${postId}/state?at=1.1` }), [401, 403, 403, 200]],
  ['GET /api/admin/snapshots', () => ({ method: 'GET', path: '/api/admin/snapshots' }), [401, 403, 403, 200]],
  ['GET /api/admin/projections', () => ({ method: 'GET', path: '/api/admin/projections' }), [401, 403, 403, 200]],
  ['POST /api/admin/projections/:name/rebuild', () => ({ method: 'POST', path: '/api/admin/projections/tags/rebuild' }), [401, 403, 403, 202]],
];

describe('authorization matrix', () => {
  it('answers every endpoint for visitor, user, member and admin with the expected status and the security headers', { timeout: 180_000 }, async () => {
    const actual: Record<string, number[]> = {};
    const expected: Record<string, number[]> = {};
    const headerProblems: Record<string, string[]> = {};
    for (const [name, call, statuses] of rows) {
      expected[name] = statuses;
      actual[name] = [];
      for (const role of ROLES) {
        const request = await call(callers[role]);
        const token = request.as?.token ?? callers[role].token;
        const response = await forum.api(request.path, {
          method: request.method,
          ...(token ? { token } : {}),
          ...(request.json !== undefined ? { json: request.json } : {}),
        });
        await response.arrayBuffer();
        actual[name].push(response.status);
        const problems = securityHeaderProblems(response.headers, 'strict');
        if (problems.length > 0) headerProblems[`${name} as ${role}`] = problems;
      }
    }
    expect(actual).toEqual(expected);
    expect(headerProblems).toEqual({});
  });
});
