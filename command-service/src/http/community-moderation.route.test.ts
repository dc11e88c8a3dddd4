import { NOTIFICATION_READ_IDS_MAX, WARNING_REASON_MAX } from '@forum/contracts';
import { anyArray, anyString, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { anAdmin, aPosition, anError, commandApiSpec, hostileText, member, registered, visitor, warned, type Member } from '../testing/index.ts';

/**
 * Moderation and a member's notifications (community.ts). A warning is addressed by the author's
 * email, which the identity provider resolves (here: an account for each member the log registered);
 * what the warned member then reads is in infra/src/api-tests (community, moderation-rules).
 */
const api = commandApiSpec();
const nora = member('Nora Author');
const otto = member('Otto Troll');
const ada = member('Ada Admin');
const NO_ID = '00000000-0000-4000-8000-000000000000';

async function commentOnANewPost(author: Member, commenter: Member): Promise<{ postId: string; commentId: string }> {
  const [{ id: postId }] = await api.given(author.post('/api/posts', { title: 'A post', description: 'Some text', tags: [] }));
  const [{ id: commentId }] = await api.given(commenter.post('/api/comments', { postId, text: 'Buy my stuff' }));
  return { postId, commentId };
}

describe('DELETE /api/admin/comments/:commentId', () => {
  it('removes the comment: 200 {id, position}, CommentRemoved naming the admin; removed, it is 404', async () => {
    await api.given(anAdmin(ada));
    const { postId, commentId } = await commentOnANewPost(nora, otto);
    await api.when(ada.delete(`/api/admin/comments/${commentId}`)).then(200, { id: commentId, position: aPosition }, [
      {
        streamId: `comment-${commentId}`,
        type: 'CommentRemoved',
        data: { commentId, postId, authorId: otto.id, removedBy: ada.id },
        metadata: { actorId: ada.id },
      },
    ]);
    await api.when(ada.delete(`/api/admin/comments/${commentId}`)).then(404, anError('NOT_FOUND'));
  });

  it("refuses a user (403, even the comment's author) and a visitor (401); answers 404 for an unknown comment and 400 for a bad id or a body; appends nothing", async () => {
    await api.given(anAdmin(ada));
    const { commentId } = await commentOnANewPost(nora, otto);
    await api.when(otto.delete(`/api/admin/comments/${commentId}`)).then(403, anError('FORBIDDEN'));
    await api.when(visitor.delete(`/api/admin/comments/${commentId}`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(ada.delete(`/api/admin/comments/${NO_ID}`)).then(404, anError('NOT_FOUND'));
    await api.when(ada.delete('/api/admin/comments/nope')).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.delete('/api/admin/comments/%00')).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.delete(`/api/admin/comments/${commentId}`, { anything: true })).then(400, anError('VALIDATION_FAILED'));
  });
});

describe('POST /api/admin/warn-user/:authorEmail: what is refused before the author is looked up', () => {
  it('refuses a visitor with 401, and a path or body that cannot be a warning with 400 on its field; appends nothing', async () => {
    await api.given(anAdmin(ada));
    const warn = (email: string, body?: unknown) => ada.post(`/api/admin/warn-user/${email}`, body);
    await api.when(visitor.post(`/api/admin/warn-user/${otto.email}`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(warn('not-an-email')).then(400, anError('VALIDATION_FAILED', { details: { authorEmail: ['Not an email address'] } }));
    await api.when(warn('a%00b%40example.com')).then(400, anError('VALIDATION_FAILED'));
    const long = await api.when(warn(otto.email, { reason: 'x'.repeat(WARNING_REASON_MAX + 1) })).then(400);
    expect(long.body).toMatchObject({ error: { details: { reason: anyArray } } });
    await api.when(warn(otto.email, { commentId: 'nope' })).then(400, anError('VALIDATION_FAILED', { details: { commentId: ['Not a comment id'] } }));
  });

  it.each(hostileText('body'))('refuses %s in the reason with 400 on reason, appending nothing', async (_what, reason) => {
    await api.given(anAdmin(ada));
    await api.when(ada.post(`/api/admin/warn-user/${otto.email}`, { reason })).then(400, anError('VALIDATION_FAILED', { details: { reason: anyArray } }));
  });
});

describe('POST /api/admin/warn-user/:authorEmail: the author found by email', () => {
  it("warns the account the identity provider names for the email (any case) when the forum registered it so: 201, UserWarned on the member's notifications", async () => {
    await api.given(anAdmin(ada), registered(otto));
    const { appended } = await api.when(ada.post(`/api/admin/warn-user/${otto.email.toUpperCase()}`, { reason: 'Please stay polite' })).then(201);
    expect(appended).toMatchObject([{ type: 'UserWarned', data: { userId: otto.id, reason: 'Please stay polite' }, metadata: { actorId: ada.id } }]);
  });

  it('answers 404 for an email no one registered with, and for an erased member; appends nothing', async () => {
    await api.given(anAdmin(ada), registered(otto), registered(nora), nora.delete('/api/me', { content: 'keep' }));
    await api.when(ada.post('/api/admin/warn-user/nobody@forum.test', {})).then(404, anError('NOT_FOUND'));
    await api.when(ada.post(`/api/admin/warn-user/${nora.email}`, {})).then(404, anError('NOT_FOUND'));
  });
});

describe('POST /api/me/notifications/read', () => {
  const plain = uuidOf(1);
  const named = uuidOf(2);

  it('marks warnings read by id, then all, with WarningsRead, and the other notifications with NotificationsRead; a time already read appends nothing', async () => {
    await api.given(anAdmin(ada), registered(otto), warned(otto, ada, plain), warned(otto, ada, named, 'Please stay polite'));
    const read = (body?: unknown) => otto.post('/api/me/notifications/read', body);
    const activity = uuidOf(3);
    await api.when(read({ ids: [plain, activity] })).then(200, { id: otto.id, position: aPosition }, [
      { streamId: `notifications-${otto.id}`, type: 'WarningsRead', data: { userId: otto.id, warningIds: [plain] }, metadata: { actorId: otto.id } },
      { streamId: `notifications-${otto.id}`, type: 'NotificationsRead', data: { userId: otto.id, ids: [activity] }, metadata: { actorId: otto.id } },
    ]);
    await api.when(read()).then(200, { id: otto.id, position: aPosition }, [
      { type: 'WarningsRead', data: { warningIds: [named] } },
      { type: 'NotificationsRead', data: { upTo: anyString } },
    ]);
    const upTo = '2026-11-29T10:00:00.000Z';
    await api.when(read({ upTo: '2026-11-29T11:00:00+01:00' })).then(200, { id: otto.id }, []);
    await api.given(nora.post('/api/me/notifications/read', { upTo }));
    await api.when(nora.post('/api/me/notifications/read', { upTo })).then(200, { id: nora.id }, []);
  });

  it('refuses a visitor with 401, and upTo with ids, a bad id, too many ids or a bad date with 400; appends nothing', async () => {
    await api.given(registered(otto));
    const read = (body?: unknown) => otto.post('/api/me/notifications/read', body);
    await api.when(visitor.post('/api/me/notifications/read')).then(401, anError('UNAUTHENTICATED'));
    await api
      .when(read({ upTo: new Date().toISOString(), ids: [NO_ID] }))
      .then(400, anError('VALIDATION_FAILED', { details: { _: ['Send upTo or ids, not both'] } }));
    await api.when(read({ ids: ['nope'] })).then(400, anError('VALIDATION_FAILED'));
    const ids = Array.from({ length: NOTIFICATION_READ_IDS_MAX + 1 }, (_, n) => uuidOf(100 + n));
    await api.when(read({ ids })).then(400, anError('VALIDATION_FAILED', { details: { ids: [`At most ${NOTIFICATION_READ_IDS_MAX} ids at once`] } }));
    await api.when(read({ upTo: 'yesterday' })).then(400, anError('VALIDATION_FAILED', { details: { upTo: ['upTo must be an ISO date-time'] } }));
  });
});

describe('POST /api/me/announcements/read', () => {
  async function published(title: string): Promise<string> {
    const [{ id }] = await api.given(ada.post('/api/admin/announcements', { title, description: `About ${title}` }));
    return id;
  }

  it('marks the announcements read up to the one named: 200 {id: the member, position}, AnnouncementsRead', async () => {
    await api.given(anAdmin(ada), registered(nora));
    await published('First news');
    const newest = await published('Second news');
    await api.when(nora.post('/api/me/announcements/read', { announcementId: newest })).then(200, { id: nora.id, position: aPosition }, [
      {
        streamId: `notifications-${nora.id}`,
        type: 'AnnouncementsRead',
        data: { userId: nora.id, announcementId: newest, upTo: anyString, readAt: anyString },
        metadata: { actorId: nora.id },
      },
    ]);
  });

  it('only moves forward: the same or an older announcement answers 200 without a position and appends nothing', async () => {
    await api.given(anAdmin(ada), registered(nora));
    const older = await published('Older');
    const newer = await published('Newer');
    await api.given(nora.post('/api/me/announcements/read', { announcementId: newer }));
    for (const announcementId of [newer, older]) await api.when(nora.post('/api/me/announcements/read', { announcementId })).then(200, { id: nora.id }, []);
  });

  it('two devices marking at once append one event; a retry with the same Idempotency-Key answers the first answer', async () => {
    await api.given(anAdmin(ada), registered(nora));
    const news = await published('At once');
    const outcomes = await Promise.all([1, 2].map(() => api.when(nora.post('/api/me/announcements/read', { announcementId: news })).outcome));
    expect(outcomes.map((o) => o.status)).toEqual([200, 200]);
    expect((await api.log()).filter((e) => e.type === 'AnnouncementsRead')).toHaveLength(1);

    const later = await published('Retried');
    const keyed = { headers: { 'Idempotency-Key': `read-${nora.id}` } };
    const first = await api.when(nora.post('/api/me/announcements/read', { announcementId: later }, keyed)).then(200);
    const retry = await api.when(nora.post('/api/me/announcements/read', { announcementId: later }, keyed)).then(200, first.body, []);
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a visitor (401), a body without an announcement id or with a bad one (400), an unknown announcement (404); appends nothing', async () => {
    await api.given(registered(nora));
    const read = (body?: unknown) => nora.post('/api/me/announcements/read', body);
    await api.when(visitor.post('/api/me/announcements/read', { announcementId: NO_ID })).then(401, anError('UNAUTHENTICATED'));
    await api.when(read()).then(400, anError('VALIDATION_FAILED'));
    const empty = await api.when(read({})).then(400);
    expect(empty.body).toMatchObject({ error: { details: { announcementId: anyArray } } });
    await api.when(read({ announcementId: 'newest' })).then(400, anError('VALIDATION_FAILED', { details: { announcementId: ['Not an announcement id'] } }));
    await api.when(read({ announcementId: NO_ID })).then(404, { error: { code: 'NOT_FOUND', message: 'No such announcement' } });
  });
});
