import { randomUUID } from 'node:crypto';
import { REPORT_FEEDBACK, type CreatePostRequest, type ErrorBody, type PostDetail } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../testing/expect-status.ts';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * One rule for every command of the API (docs/api.md#bodies): a body holds the call's fields and
 * nothing else. A key that is not one is refused, 400 VALIDATION_FAILED naming it, and nothing is
 * appended; the fields the spec's own clients send beside them (an author's name, a time: the
 * server takes those from the token and its clock) are accepted and dropped.
 */
let forum: TestForum;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const id = randomUUID();
/** Each command with a body it would accept, its path parameters filled in with values of the right form. */
const COMMANDS: Record<string, { path: string; body: Record<string, unknown> }> = {
  'POST /api/posts': { path: '/api/posts', body: { title: 'A title', description: 'Some words', tags: [] } },
  'DELETE /api/my-posts/:id': { path: `/api/my-posts/${id}`, body: {} },
  'PATCH /api/me': { path: '/api/me', body: { displayName: 'A Name' } },
  'POST /api/me/registration': { path: '/api/me/registration', body: {} },
  'DELETE /api/me': { path: '/api/me', body: { content: 'keep' } },
  'DELETE /api/admin/users/:userId': { path: '/api/admin/users/someone', body: { content: 'keep' } },
  'PATCH /api/users/membership/:email': { path: '/api/users/membership/someone@forum.test', body: {} },
  'PATCH /api/posts/:id': { path: `/api/posts/${id}`, body: { title: 'A title', reason: 'Tidy up' } },
  'PATCH /api/comments/:commentId': { path: `/api/comments/${id}`, body: { text: 'Nice post', reason: 'Tidy up' } },
  'PUT /api/posts/:id/vote': { path: `/api/posts/${id}/vote`, body: { vote: 'up' } },
  'PATCH /api/posts/:id/vote': { path: `/api/posts/${id}/vote`, body: { likeChange: 1, dislikeChange: 0 } },
  'PUT /api/posts/:id/follow': { path: `/api/posts/${id}/follow`, body: {} },
  'DELETE /api/posts/:id/follow': { path: `/api/posts/${id}/follow`, body: {} },
  'PUT /api/tags/:name/follow': { path: '/api/tags/General/follow', body: {} },
  'DELETE /api/tags/:name/follow': { path: '/api/tags/General/follow', body: {} },
  'POST /api/comments': { path: '/api/comments', body: { postId: id, text: 'Nice post' } },
  'POST /api/comments/:commentId/report': { path: `/api/comments/${id}/report`, body: { feedback: REPORT_FEEDBACK[0] } },
  'DELETE /api/admin/comments/:commentId': { path: `/api/admin/comments/${id}`, body: {} },
  'POST /api/admin/warn-user/:authorEmail': { path: '/api/admin/warn-user/someone@forum.test', body: { reason: 'Be kind', commentId: id } },
  'POST /api/me/notifications/read': { path: '/api/me/notifications/read', body: { upTo: '2026-01-01T00:00:00Z' } },
  'POST /api/me/announcements/read': { path: '/api/me/announcements/read', body: { announcementId: id } },
  'PUT /api/me/notification-preferences': { path: '/api/me/notification-preferences', body: { reply: 'digest' } },
  'POST /api/unsubscribe': { path: '/api/unsubscribe?token=x', body: { 'List-Unsubscribe': 'One-Click' } },
  'POST /api/admin/tags': { path: '/api/admin/tags', body: { name: 'tagged' } },
  'DELETE /api/admin/tags/:id': { path: `/api/admin/tags/${id}`, body: {} },
  'PATCH /api/admin/users/make-admin/:userId': { path: '/api/admin/users/make-admin/someone', body: {} },
  'POST /api/admin/announcements': { path: '/api/admin/announcements', body: { title: 'News', description: 'Something happened' } },
  'POST /api/contact': { path: '/api/contact', body: { name: 'Vera', email: 'vera@example.com', message: 'Hello there' } },
  'POST /api/admin/projections/:name/rebuild': { path: '/api/admin/projections/tags/rebuild', body: {} },
  // staff's calls (issue #43)
  'POST /api/posts/:id/report': { path: `/api/posts/${id}/report`, body: { feedback: REPORT_FEEDBACK[0] } },
  'PUT /api/admin/users/:userId/moderator': { path: '/api/admin/users/someone/moderator', body: {} },
  'DELETE /api/admin/users/:userId/moderator': { path: '/api/admin/users/someone/moderator', body: {} },
  'POST /api/admin/reports/:kind/:id/dismiss': { path: `/api/admin/reports/post/${id}/dismiss`, body: {} },
  'PUT /api/admin/posts/:id/hide': { path: `/api/admin/posts/${id}/hide`, body: { reason: 'Off topic' } },
  'DELETE /api/admin/posts/:id/hide': { path: `/api/admin/posts/${id}/hide`, body: {} },
  'PUT /api/admin/comments/:commentId/hide': { path: `/api/admin/comments/${id}/hide`, body: { reason: 'Rude' } },
  'DELETE /api/admin/comments/:commentId/hide': { path: `/api/admin/comments/${id}/hide`, body: {} },
  'PUT /api/admin/posts/:id/lock': { path: `/api/admin/posts/${id}/lock`, body: { reason: 'Settled' } },
  'DELETE /api/admin/posts/:id/lock': { path: `/api/admin/posts/${id}/lock`, body: {} },
  'PUT /api/admin/posts/:id/pin': { path: `/api/admin/posts/${id}/pin`, body: {} },
  'DELETE /api/admin/posts/:id/pin': { path: `/api/admin/posts/${id}/pin`, body: {} },
  'POST /api/admin/users/:userId/warnings': { path: '/api/admin/users/someone/warnings', body: { reason: 'Be kind' } },
  'POST /api/admin/users/:userId/suspend': { path: '/api/admin/users/someone/suspend', body: { reason: 'Spam', period: 'day' } },
  'DELETE /api/admin/users/:userId/suspend': { path: '/api/admin/users/someone/suspend', body: {} },
};

/** The refusal of `body` sent to `route` by the admin (who may call every command): its error, once it is 400; nothing appended. */
async function refusal(route: string, body: Record<string, unknown>): Promise<ErrorBody['error']> {
  const { path } = COMMANDS[route]!;
  const before = await forum.eventCount();
  const { error } = await expectStatus<ErrorBody>(forum.api(path, { method: route.split(' ')[0], token: admin.token, json: body }), 400, route);
  expect(await forum.eventCount(), `${route} appended`).toBe(before);
  return error;
}

describe('a command body with a key that is not a field of the call', () => {
  it('covers every command the command service has (a new one joins the table)', () => {
    const commands = forum.apps.command.routes.filter((route) => route.includes(' /api/') && !route.startsWith('GET ') && !route.startsWith('HEAD '));
    expect(commands.filter((route) => !(route in COMMANDS))).toEqual([]);
  });

  it.each(Object.keys(COMMANDS))('%s: 400 VALIDATION_FAILED naming the key, and only it; nothing appended', async (route) => {
    const error = await refusal(route, { ...COMMANDS[route]!.body, colour: 'blue' });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({ colour: ['colour is not a field of this call'] });
  });

  it('names every such key at once, also when a field is wrong too', async () => {
    const error = await refusal('POST /api/comments', { postId: 'not-an-id', text: 'Hi', colour: 'blue', size: 3 });
    expect(error.details).toEqual({ postId: ['Not a post id'], colour: ['colour is not a field of this call'], size: ['size is not a field of this call'] });
  });

  it('reads a key that is a field of Object.prototype as the key it is, not as a field', async () => {
    const error = await refusal('POST /api/admin/tags', JSON.parse('{"name":"tagged","__proto__":{"x":1},"constructor":1}') as Record<string, unknown>);
    expect(error.details).toEqual(
      JSON.parse('{"__proto__":["__proto__ is not a field of this call"],"constructor":["constructor is not a field of this call"]}'),
    );
  });
});

describe("the fields the spec's clients send beside a command's own", () => {
  it('POST /api/posts with upVote, downVote, authorName, authorEmail, authorPhoto and createdAt: created, none of them taken', async () => {
    const post: CreatePostRequest = { title: 'As the spec sends it', description: 'With the author beside it', tags: [] };
    const created = await forum.call<{ id: string; position: string }>('POST', '/api/posts', {
      token: admin.token,
      body: {
        ...post,
        upVote: 99,
        downVote: 0,
        authorName: 'Someone Else',
        authorEmail: 'else@forum.test',
        authorPhoto: 'https://img.example/x.png',
        createdAt: '2001-01-01T00:00:00Z',
      },
      expect: 201,
    });
    const shown = await forum.call<PostDetail>('GET', `/api/posts/${created.id}`, { headers: minPositionHeaders(created.position) });
    expect(shown).toMatchObject({ title: post.title, upVote: 0, authorName: 'Forum Admin' });
    expect(shown.createdAt).not.toBe('2001-01-01T00:00:00Z');
  });

  it('POST /api/comments with authorName, authorPhoto and createdAt, and a report with reporterEmail: accepted', async () => {
    const { id: postId } = await forum.call<{ id: string }>('POST', '/api/posts', {
      token: admin.token,
      body: { title: 'For comments', description: 'Comment below', tags: [] },
      expect: 201,
    });
    const member = await forum.newUser('Spec Client');
    const comment = await forum.call<{ id: string }>('POST', '/api/comments', {
      token: member.token,
      body: { postId, text: 'As the spec sends it', authorName: 'Someone Else', authorPhoto: 'https://img.example/x.png', createdAt: '2001-01-01T00:00:00Z' },
      expect: 201,
    });
    await forum.call('POST', `/api/comments/${comment.id}/report`, {
      token: admin.token,
      body: { feedback: REPORT_FEEDBACK[0], reporterEmail: 'else@forum.test' },
      expect: 201,
    });
  });
});
