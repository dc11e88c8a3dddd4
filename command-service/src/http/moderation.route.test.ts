import { PINNED_MAX } from '@forum/contracts';
import { anyArray, anyString } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { aModerator, anAdmin, aPosition, anError, commandApiSpec, member, registered, visitor, type Member } from '../testing/index.ts';

/**
 * Staff's writes (moderation.ts, issue #43): the moderator role (admins), and what admins and
 * moderators both do. A member is 403 FORBIDDEN, a visitor 401; a moderator acting on
 * staff is 403 STAFF_PROTECTED. What the read models then show is the read side's (query-service).
 */
const api = commandApiSpec();
const ada = member('Ada Admin');
const mona = member('Mona Moderator');
const max = member('Max Moderator');
const nora = member('Nora Author');
const otto = member('Otto Troll');
const NO_ID = '00000000-0000-4000-8000-000000000000';

async function aPost(author: Member, title = 'A post'): Promise<string> {
  const [{ id }] = await api.given(author.post('/api/posts', { title, description: 'Some text', tags: [] }));
  return id;
}
async function aComment(author: Member, postId: string): Promise<string> {
  const [{ id }] = await api.given(author.post('/api/comments', { postId, text: 'Buy my stuff' }));
  return id;
}

describe('PUT and DELETE /api/admin/users/:userId/moderator', () => {
  it('an admin makes a member a moderator (ModeratorRoleGranted) and takes it back (ModeratorRoleRevoked); again: 200 without a position', async () => {
    await api.given(anAdmin(ada), registered(nora));
    const url = `/api/admin/users/${nora.id}/moderator`;
    await api.when(ada.put(url)).then(200, { id: nora.id, position: aPosition }, [
      {
        streamId: `user-${nora.id}`,
        type: 'ModeratorRoleGranted',
        data: { userId: nora.id, grantedBy: ada.id, grantedAt: anyString },
        metadata: { actorId: ada.id },
      },
    ]);
    await api.when(ada.put(url)).then(200, { id: nora.id }, []);
    // now a moderator, she works the queue
    const postId = await aPost(otto);
    await api.when(nora.put(`/api/admin/posts/${postId}/lock`)).then(200, { id: postId, position: aPosition });
    await api
      .when(ada.delete(url))
      .then(200, { id: nora.id, position: aPosition }, [{ type: 'ModeratorRoleRevoked', data: { userId: nora.id, revokedBy: ada.id } }]);
    await api.when(ada.delete(url)).then(200, { id: nora.id }, []);
    await api.when(nora.delete(`/api/admin/posts/${postId}/lock`)).then(403, anError('FORBIDDEN'));
  });

  it('refuses an admin as target (409 ALREADY_ADMIN), an unknown member (404), a bad id or a body (400)', async () => {
    await api.given(anAdmin(ada), registered(nora), anAdmin(member('Other Admin')));
    const other = member('Another Admin');
    await api.given(anAdmin(other));
    await api.when(ada.put(`/api/admin/users/${other.id}/moderator`)).then(409, anError('ALREADY_ADMIN'));
    await api.when(ada.delete(`/api/admin/users/${other.id}/moderator`)).then(409, anError('ALREADY_ADMIN'));
    await api.when(ada.put(`/api/admin/users/${NO_ID}/moderator`)).then(404, anError('NOT_FOUND'));
    await api.when(ada.put('/api/admin/users/%00/moderator')).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.put(`/api/admin/users/${nora.id}/moderator`, { on: true })).then(400, anError('VALIDATION_FAILED'));
  });

  it('refuses a visitor (401), a member (403) and a moderator (403: only admins make moderators)', async () => {
    await api.given(anAdmin(ada), aModerator(mona), registered(nora));
    for (const method of ['put', 'delete'] as const) {
      await api.when(visitor[method](`/api/admin/users/${nora.id}/moderator`)).then(401, anError('UNAUTHENTICATED'));
      await api.when(otto[method](`/api/admin/users/${nora.id}/moderator`)).then(403, anError('FORBIDDEN'));
      await api.when(mona[method](`/api/admin/users/${nora.id}/moderator`)).then(403, anError('FORBIDDEN'));
    }
  });

  it('two admins granting at once append one ModeratorRoleGranted; both answer 200', async () => {
    const bea = member('Bea Admin');
    await api.given(anAdmin(ada), anAdmin(bea), registered(nora));
    const outcomes = await Promise.all([ada, bea].map((admin) => api.when(admin.put(`/api/admin/users/${nora.id}/moderator`)).outcome));
    expect(outcomes.map((o) => o.status)).toEqual([200, 200]);
    expect((await api.log()).filter((e) => e.type === 'ModeratorRoleGranted')).toHaveLength(1);
  });
});

describe('a moderator and the admin-only calls', () => {
  it('refuses a moderator every admin-only write with 403 FORBIDDEN: tags, make admin, erase, announcements, rebuild', async () => {
    await api.given(anAdmin(ada), aModerator(mona), registered(nora));
    const [{ id: tagId }] = await api.given(ada.post('/api/admin/tags', { name: 'Go' }));
    const calls = [
      mona.post('/api/admin/tags', { name: 'Rust' }),
      mona.delete(`/api/admin/tags/${tagId}`),
      mona.patch(`/api/admin/users/make-admin/${nora.id}`),
      mona.delete(`/api/admin/users/${nora.id}`, { content: 'keep' }),
      mona.post('/api/admin/announcements', { title: 'Hi', description: 'All' }),
      mona.post(`/api/admin/warn-user/${nora.email}`, {}),
    ];
    for (const call of calls) await api.when(call).then(403, anError('FORBIDDEN'));
    await api.when(mona.post('/api/admin/projections/posts/rebuild')).then(403, anError('FORBIDDEN'));
  });

  it("lets a moderator delete a member's post and comment, and edit them with a reason; not a staff member's (403 STAFF_PROTECTED)", async () => {
    await api.given(anAdmin(ada), aModerator(mona), registered(nora));
    const postId = await aPost(nora);
    const commentId = await aComment(otto, postId);
    await api.when(mona.patch(`/api/posts/${postId}`, { title: 'Tidied', reason: 'Typo' })).then(200, { id: postId, position: aPosition });
    await api.when(mona.patch(`/api/comments/${commentId}`, { text: 'Tidied', reason: 'Ads' })).then(200, { id: commentId, position: aPosition });
    await api
      .when(mona.delete(`/api/admin/comments/${commentId}`))
      .then(200, { id: commentId, position: aPosition }, [{ type: 'CommentRemoved', data: { removedBy: mona.id } }]);
    await api
      .when(mona.delete(`/api/my-posts/${postId}`))
      .then(200, { id: postId, position: aPosition }, [{ type: 'PostDeleted', data: { deletedBy: mona.id } }, { type: 'AuthoredPostRemoved' }]);
    const adasPost = await aPost(ada);
    const adasComment = await aComment(ada, adasPost);
    await api.when(mona.delete(`/api/my-posts/${adasPost}`)).then(403, anError('STAFF_PROTECTED'));
    await api.when(mona.delete(`/api/admin/comments/${adasComment}`)).then(403, anError('STAFF_PROTECTED'));
  });
});

describe('POST /api/posts/:id/report', () => {
  it('reports a post once: 201 {id, position}, PostReported on post-report-<post>-<reporter>; again 409 ALREADY_REPORTED', async () => {
    await api.given(registered(otto));
    const postId = await aPost(nora);
    await api.when(otto.post(`/api/posts/${postId}/report`, { feedback: 'spam' })).then(201, { id: postId, position: aPosition }, [
      {
        streamId: `post-report-${postId}-${otto.id}`,
        type: 'PostReported',
        data: { postId, reporterId: otto.id, reporterName: 'Otto Troll', reporterEmail: otto.email, feedback: 'spam', reportedAt: anyString },
        metadata: { actorId: otto.id },
      },
    ]);
    await api
      .when(otto.post(`/api/posts/${postId}/report`, { feedback: 'offensive' }))
      .then(409, anError('ALREADY_REPORTED', { message: 'You have already reported this post' }));
  });

  it('refuses one’s own post (422 OWN_POST_REPORT), an unknown post (404), bad feedback (400), a visitor (401)', async () => {
    const postId = await aPost(nora);
    await api
      .when(nora.post(`/api/posts/${postId}/report`, { feedback: 'spam' }))
      .then(422, anError('OWN_POST_REPORT', { message: 'You cannot report your own post.' }));
    await api.when(otto.post(`/api/posts/${NO_ID}/report`, { feedback: 'spam' })).then(404, anError('NOT_FOUND'));
    const bad = await api.when(otto.post(`/api/posts/${postId}/report`, { feedback: 'boring' })).then(400, anError('VALIDATION_FAILED'));
    expect(bad.body).toMatchObject({ error: { details: { feedback: anyArray } } });
    await api.when(visitor.post(`/api/posts/${postId}/report`, { feedback: 'spam' })).then(401, anError('UNAUTHENTICATED'));
  });
});

describe('POST /api/admin/reports/:kind/:id/dismiss', () => {
  it('a moderator dismisses the reports of a post or a comment: 200, ReportsDismissed on its stream', async () => {
    await api.given(aModerator(mona));
    const postId = await aPost(nora);
    const commentId = await aComment(otto, postId);
    await api
      .when(mona.post(`/api/admin/reports/post/${postId}/dismiss`))
      .then(200, { id: postId, position: aPosition }, [
        { streamId: `post-${postId}`, type: 'ReportsDismissed', data: { item: { kind: 'post', id: postId, postId }, dismissedBy: mona.id } },
      ]);
    await api
      .when(mona.post(`/api/admin/reports/comment/${commentId}/dismiss`))
      .then(200, { id: commentId, position: aPosition }, [
        { streamId: `comment-${commentId}`, type: 'ReportsDismissed', data: { item: { kind: 'comment', id: commentId, postId } } },
      ]);
  });

  it('refuses an unknown item (404), a bad kind (400), a member (403), a visitor (401)', async () => {
    await api.given(aModerator(mona));
    const postId = await aPost(nora);
    await api.when(mona.post(`/api/admin/reports/post/${NO_ID}/dismiss`)).then(404, anError('NOT_FOUND'));
    await api.when(mona.post(`/api/admin/reports/comment/${NO_ID}/dismiss`)).then(404, anError('NOT_FOUND'));
    await api.when(mona.post(`/api/admin/reports/user/${postId}/dismiss`)).then(400, anError('VALIDATION_FAILED'));
    await api.when(otto.post(`/api/admin/reports/post/${postId}/dismiss`)).then(403, anError('FORBIDDEN'));
    await api.when(visitor.post(`/api/admin/reports/post/${postId}/dismiss`)).then(401, anError('UNAUTHENTICATED'));
  });
});

describe('PUT and DELETE /api/admin/posts/:id/hide and /api/admin/comments/:commentId/hide', () => {
  it('a moderator hides a post with a reason (PostHidden); others then cannot comment, vote or report on it (404); its author edits it; staff comment; unhide restores it', async () => {
    await api.given(aModerator(mona), registered(otto));
    const postId = await aPost(nora);
    await api.when(mona.put(`/api/admin/posts/${postId}/hide`, { reason: '  Off topic ' })).then(200, { id: postId, position: aPosition }, [
      {
        streamId: `post-${postId}`,
        type: 'PostHidden',
        data: { postId, authorId: nora.id, reason: 'Off topic', hiddenBy: mona.id },
        metadata: { actorId: mona.id },
      },
    ]);
    await api.when(mona.put(`/api/admin/posts/${postId}/hide`, { reason: 'Off topic' })).then(200, { id: postId }, []);
    await api.when(otto.post('/api/comments', { postId, text: 'Hi' })).then(404, anError('NOT_FOUND'));
    await api.when(nora.post('/api/comments', { postId, text: 'Hi' })).then(404, anError('NOT_FOUND'));
    await api.when(otto.put(`/api/posts/${postId}/vote`, { vote: 'up' })).then(404, anError('NOT_FOUND'));
    await api.when(otto.post(`/api/posts/${postId}/report`, { feedback: 'spam' })).then(404, anError('NOT_FOUND'));
    await api.when(nora.patch(`/api/posts/${postId}`, { title: 'On topic now' })).then(200, { id: postId, position: aPosition });
    await api.when(mona.post('/api/comments', { postId, text: 'Hidden for a reason' })).then(201);
    await api
      .when(mona.delete(`/api/admin/posts/${postId}/hide`))
      .then(200, { id: postId, position: aPosition }, [{ type: 'PostUnhidden', data: { unhiddenBy: mona.id } }]);
    await api.when(mona.delete(`/api/admin/posts/${postId}/hide`)).then(200, { id: postId }, []);
    await api.when(otto.post('/api/comments', { postId, text: 'Hi' })).then(201);
  });

  it('a moderator hides a comment (CommentHidden) and shows it again (CommentUnhidden); a member cannot report it while hidden', async () => {
    await api.given(aModerator(mona));
    const postId = await aPost(nora);
    const commentId = await aComment(otto, postId);
    await api
      .when(mona.put(`/api/admin/comments/${commentId}/hide`, { reason: 'Rude' }))
      .then(200, { id: commentId, position: aPosition }, [
        { streamId: `comment-${commentId}`, type: 'CommentHidden', data: { commentId, postId, authorId: otto.id, reason: 'Rude', hiddenBy: mona.id } },
      ]);
    await api.when(nora.post(`/api/comments/${commentId}/report`, { feedback: 'offensive' })).then(404, anError('NOT_FOUND'));
    await api.when(mona.delete(`/api/admin/comments/${commentId}/hide`)).then(200, { id: commentId, position: aPosition }, [{ type: 'CommentUnhidden' }]);
  });

  it("refuses a moderator on staff's content (403 STAFF_PROTECTED) but not an admin; a missing or empty reason (400); unknown (404); a member (403), a visitor (401)", async () => {
    await api.given(anAdmin(ada), aModerator(mona), aModerator(max));
    const maxPost = await aPost(max);
    const maxComment = await aComment(max, maxPost);
    await api.when(mona.put(`/api/admin/posts/${maxPost}/hide`, { reason: 'x' })).then(403, anError('STAFF_PROTECTED'));
    await api.when(mona.put(`/api/admin/comments/${maxComment}/hide`, { reason: 'x' })).then(403, anError('STAFF_PROTECTED'));
    await api.when(ada.put(`/api/admin/posts/${maxPost}/hide`, { reason: 'x' })).then(200, { id: maxPost, position: aPosition });
    await api.when(mona.put(`/api/admin/posts/${maxPost}/hide`, {})).then(400, anError('VALIDATION_FAILED'));
    await api
      .when(mona.put(`/api/admin/posts/${maxPost}/hide`, { reason: '   ' }))
      .then(400, anError('VALIDATION_FAILED', { details: { reason: ['Reason must not be empty'] } }));
    await api.when(mona.put(`/api/admin/posts/${NO_ID}/hide`, { reason: 'x' })).then(404, anError('NOT_FOUND'));
    await api.when(mona.put(`/api/admin/comments/${NO_ID}/hide`, { reason: 'x' })).then(404, anError('NOT_FOUND'));
    await api.when(otto.put(`/api/admin/posts/${maxPost}/hide`, { reason: 'x' })).then(403, anError('FORBIDDEN'));
    await api.when(visitor.delete(`/api/admin/posts/${maxPost}/hide`)).then(401, anError('UNAUTHENTICATED'));
  });
});

describe('PUT and DELETE /api/admin/posts/:id/lock', () => {
  it('locks a post (PostLocked with the reason): a member’s comment is 409 POST_LOCKED, staff still comment, votes go on; unlock opens it', async () => {
    await api.given(aModerator(mona), registered(otto));
    const postId = await aPost(nora);
    await api
      .when(mona.put(`/api/admin/posts/${postId}/lock`, { reason: 'Settled' }))
      .then(200, { id: postId, position: aPosition }, [
        { streamId: `post-${postId}`, type: 'PostLocked', data: { postId, reason: 'Settled', lockedBy: mona.id } },
      ]);
    await api.when(mona.put(`/api/admin/posts/${postId}/lock`)).then(200, { id: postId }, []);
    await api
      .when(otto.post('/api/comments', { postId, text: 'But…' }))
      .then(409, anError('POST_LOCKED', { message: 'This post is locked: no new comments can be added.' }));
    await api.when(mona.post('/api/comments', { postId, text: 'Closed, thanks all' })).then(201);
    await api.when(otto.put(`/api/posts/${postId}/vote`, { vote: 'up' })).then(200);
    await api.when(mona.delete(`/api/admin/posts/${postId}/lock`)).then(200, { id: postId, position: aPosition }, [{ type: 'PostUnlocked' }]);
    await api.when(otto.post('/api/comments', { postId, text: 'Now then' })).then(201);
  });

  it('refuses a member (403), a visitor (401), an unknown post (404)', async () => {
    await api.given(aModerator(mona));
    const postId = await aPost(nora);
    await api.when(otto.put(`/api/admin/posts/${postId}/lock`)).then(403, anError('FORBIDDEN'));
    await api.when(visitor.put(`/api/admin/posts/${postId}/lock`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(mona.put(`/api/admin/posts/${NO_ID}/lock`)).then(404, anError('NOT_FOUND'));
  });
});

describe('PUT and DELETE /api/admin/posts/:id/pin', () => {
  it(`pins at most ${PINNED_MAX} live posts (409 PIN_LIMIT_REACHED); deleting or unpinning one frees a place`, async () => {
    await api.given(aModerator(mona));
    const posts = [];
    for (let i = 0; i <= PINNED_MAX; i++) posts.push(await aPost(nora, `Post ${i}`));
    for (const postId of posts.slice(0, PINNED_MAX))
      await api.when(mona.put(`/api/admin/posts/${postId}/pin`)).then(200, { id: postId, position: aPosition }, [{ streamId: 'pins', type: 'PostPinned' }]);
    await api.when(mona.put(`/api/admin/posts/${posts[0]}/pin`)).then(200, { id: posts[0] }, []);
    const last = posts[PINNED_MAX]!;
    await api
      .when(mona.put(`/api/admin/posts/${last}/pin`))
      .then(409, anError('PIN_LIMIT_REACHED', { message: 'At most 3 posts can be pinned. Unpin one first.' }));
    await api.given(nora.delete(`/api/my-posts/${posts[0]}`));
    await api.when(mona.put(`/api/admin/posts/${last}/pin`)).then(200, { id: last, position: aPosition });
    await api.when(mona.delete(`/api/admin/posts/${posts[0]}/pin`)).then(200, { id: posts[0], position: aPosition }, [{ type: 'PostUnpinned' }]);
    await api.when(mona.delete(`/api/admin/posts/${posts[0]}/pin`)).then(200, { id: posts[0] }, []);
  });

  it(`two pins at once when ${PINNED_MAX - 1} are pinned: one 200, one 409`, async () => {
    const mark = member('Mark Moderator');
    await api.given(aModerator(mona), aModerator(mark));
    const posts = [];
    for (let i = 0; i <= PINNED_MAX; i++) posts.push(await aPost(nora, `Post ${i}`));
    for (const postId of posts.slice(0, PINNED_MAX - 1)) await api.given(mona.put(`/api/admin/posts/${postId}/pin`));
    const [a, b] = posts.slice(PINNED_MAX - 1);
    const outcomes = await Promise.all([api.when(mona.put(`/api/admin/posts/${a}/pin`)).outcome, api.when(mark.put(`/api/admin/posts/${b}/pin`)).outcome]);
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 409]);
    expect((await api.log()).filter((e) => e.type === 'PostPinned')).toHaveLength(PINNED_MAX);
  });

  it('refuses a member (403), a visitor (401), an unknown post (404)', async () => {
    await api.given(aModerator(mona));
    const postId = await aPost(nora);
    await api.when(otto.put(`/api/admin/posts/${postId}/pin`)).then(403, anError('FORBIDDEN'));
    await api.when(visitor.delete(`/api/admin/posts/${postId}/pin`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(mona.put(`/api/admin/posts/${NO_ID}/pin`)).then(404, anError('NOT_FOUND'));
  });
});

describe('POST /api/admin/users/:userId/warnings', () => {
  it('a moderator warns a member by id about their post (UserWarned naming the post alone), once per post (409 ALREADY_WARNED)', async () => {
    await api.given(aModerator(mona));
    const postId = await aPost(otto);
    const warn = { reason: 'No ads here', about: { kind: 'post', id: postId } };
    await api
      .when(mona.post(`/api/admin/users/${otto.id}/warnings`, warn))
      .then(201, { id: anyString, position: aPosition }, [
        { streamId: `notifications-${otto.id}`, type: 'UserWarned', data: { userId: otto.id, reason: 'No ads here', postId, warnedBy: mona.id } },
      ]);
    const appended = (await api.log()).at(-1)!.data as Record<string, unknown>;
    expect(appended.commentId).toBeUndefined();
    await api.when(mona.post(`/api/admin/users/${otto.id}/warnings`, warn)).then(409, anError('ALREADY_WARNED'));
  });

  it('warns about a comment (quoting it) or about nothing; refuses an item of someone else (404), an unknown member (404), staff as target for a moderator (403 STAFF_PROTECTED)', async () => {
    await api.given(anAdmin(ada), aModerator(mona), aModerator(max));
    const postId = await aPost(nora);
    const commentId = await aComment(otto, postId);
    await api
      .when(mona.post(`/api/admin/users/${otto.id}/warnings`, { about: { kind: 'comment', id: commentId } }))
      .then(201, { id: anyString, position: aPosition }, [{ type: 'UserWarned', data: { commentId, postId, commentQuote: 'Buy my stuff' } }]);
    await api.when(mona.post(`/api/admin/users/${otto.id}/warnings`)).then(201);
    await api.when(mona.post(`/api/admin/users/${otto.id}/warnings`, { about: { kind: 'post', id: postId } })).then(404, anError('NOT_FOUND'));
    await api.when(mona.post(`/api/admin/users/${NO_ID}/warnings`, {})).then(404, anError('NOT_FOUND'));
    await api.when(mona.post(`/api/admin/users/${max.id}/warnings`, {})).then(403, anError('STAFF_PROTECTED'));
    await api.when(mona.post(`/api/admin/users/${ada.id}/warnings`, {})).then(403, anError('STAFF_PROTECTED'));
    await api.when(ada.post(`/api/admin/users/${max.id}/warnings`, {})).then(201);
    await api.when(otto.post(`/api/admin/users/${nora.id}/warnings`, {})).then(403, anError('FORBIDDEN'));
    await api.when(visitor.post(`/api/admin/users/${nora.id}/warnings`, {})).then(401, anError('UNAUTHENTICATED'));
    await api.when(mona.post(`/api/admin/users/${otto.id}/warnings`, { about: { kind: 'user', id: otto.id } })).then(400, anError('VALIDATION_FAILED'));
  });
});

describe('POST and DELETE /api/admin/users/:userId/suspend', () => {
  const suspension = (userId: string) => `/api/admin/users/${userId}/suspend`;

  it('suspends a member for a day: MemberSuspended; their writes are 403 MEMBER_SUSPENDED with the reason and end; follows and reading marks stay allowed; the end needs no event', async () => {
    await api.given(aModerator(mona), registered(otto));
    const postId = await aPost(nora);
    const commentId = await aComment(nora, postId);
    const { appended } = await api
      .when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'day' }))
      .then(200, { id: otto.id, position: aPosition }, [
        { streamId: `user-${otto.id}`, type: 'MemberSuspended', data: { userId: otto.id, reason: 'Spam', until: anyString, suspendedBy: mona.id } },
      ]);
    const until = (appended[0]!.data as { until: string }).until;
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const refused = anError('MEMBER_SUSPENDED', { message: `Your account is suspended until ${until}: Spam`, details: { reason: 'Spam', until } });
    const writes = [
      otto.post('/api/posts', { title: 'Buy', description: 'Now', tags: [] }),
      otto.post('/api/comments', { postId, text: 'Buy now' }),
      otto.put(`/api/posts/${postId}/vote`, { vote: 'down' }),
      otto.patch(`/api/posts/${postId}/vote`, { likeChange: 1, dislikeChange: 0 }),
      otto.post(`/api/posts/${postId}/report`, { feedback: 'spam' }),
      otto.post(`/api/comments/${commentId}/report`, { feedback: 'spam' }),
      otto.patch('/api/me', { displayName: 'Otto Again' }),
    ];
    for (const write of writes) await api.when(write).then(403, refused);
    await api.when(otto.put(`/api/posts/${postId}/follow`)).then(200);
    await api.when(otto.post('/api/me/notifications/read')).then(200);
    api.later(24 * 3600 + 1);
    await api.when(otto.post('/api/comments', { postId, text: 'Sorry' })).then(201);
  });

  it('suspends until lifted, and a moderator lifts it: SuspensionLifted; lifting again appends nothing', async () => {
    await api.given(aModerator(mona), registered(otto));
    await api
      .when(mona.post(suspension(otto.id), { reason: 'Abuse', period: 'indefinite' }))
      .then(200, { id: otto.id, position: aPosition }, [{ type: 'MemberSuspended', data: { until: null } }]);
    await api
      .when(otto.post('/api/posts', { title: 'Hi', description: 'Hi', tags: [] }))
      .then(
        403,
        anError('MEMBER_SUSPENDED', { message: 'Your account is suspended until a moderator lifts it: Abuse', details: { reason: 'Abuse', until: null } }),
      );
    await api
      .when(mona.delete(suspension(otto.id)))
      .then(200, { id: otto.id, position: aPosition }, [{ type: 'SuspensionLifted', data: { liftedBy: mona.id } }]);
    await api.when(mona.delete(suspension(otto.id))).then(200, { id: otto.id }, []);
    await api.when(otto.post('/api/posts', { title: 'Hi', description: 'Hi', tags: [] })).then(201);
  });

  it('suspends until a date, naming the reported item it comes from; refuses a date past or too far (400 on until), a date without period date (400)', async () => {
    await api.given(aModerator(mona), registered(otto));
    const postId = await aPost(otto);
    const until = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    await api
      .when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'date', until, about: { kind: 'post', id: postId } }))
      .then(200, { id: otto.id, position: aPosition }, [{ type: 'MemberSuspended', data: { until, about: { kind: 'post', id: postId, postId } } }]);
    await api
      .when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'date', until: '2020-01-01T00:00:00Z' }))
      .then(400, anError('VALIDATION_FAILED', { details: { until: ['The suspension must end in the future'] } }));
    await api.when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'date', until: '2999-01-01T00:00:00Z' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'day', until })).then(400, anError('VALIDATION_FAILED'));
    await api.when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'month' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(mona.post(suspension(otto.id), { period: 'day' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(mona.post(suspension(otto.id), { reason: 'Spam', period: 'week', until: null })).then(400, anError('VALIDATION_FAILED'));
    await api.when(mona.post(suspension(otto.id), { reason: 'Spam' })).then(400, anError('VALIDATION_FAILED'));
  });

  it("takes the issue's shape {until, reason} alone: a date is the period date, null until lifted", async () => {
    await api.given(aModerator(mona), registered(otto));
    const until = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
    await api
      .when(mona.post(suspension(otto.id), { until, reason: 'Spam' }))
      .then(200, { id: otto.id, position: aPosition }, [{ type: 'MemberSuspended', data: { until } }]);
    await api
      .when(mona.post(suspension(otto.id), { until: null, reason: 'Spam again' }))
      .then(200, { id: otto.id, position: aPosition }, [{ type: 'MemberSuspended', data: { until: null, reason: 'Spam again' } }]);
    await api.when(mona.post(suspension(otto.id), { until: 'tomorrow', reason: 'Spam' })).then(400, anError('VALIDATION_FAILED'));
  });

  it('refuses suspending an admin or oneself, and a moderator suspending a moderator (403 STAFF_PROTECTED); an admin suspends a moderator, whose staff calls are then refused', async () => {
    await api.given(anAdmin(ada), aModerator(mona), aModerator(max), registered(otto));
    await api
      .when(mona.post(suspension(ada.id), { reason: 'x', period: 'day' }))
      .then(403, anError('STAFF_PROTECTED', { message: 'An admin cannot be suspended.' }));
    await api.when(ada.post(suspension(ada.id), { reason: 'x', period: 'day' })).then(403, anError('STAFF_PROTECTED'));
    await api
      .when(mona.post(suspension(mona.id), { reason: 'x', period: 'day' }))
      .then(403, anError('STAFF_PROTECTED', { message: 'You cannot suspend yourself.' }));
    await api.when(mona.post(suspension(max.id), { reason: 'x', period: 'day' })).then(403, anError('STAFF_PROTECTED'));
    await api.when(ada.post(suspension(max.id), { reason: 'Rogue', period: 'week' })).then(200);
    await api.when(max.post('/api/posts', { title: 'Hi', description: 'Hi', tags: [] })).then(403, anError('MEMBER_SUSPENDED'));
    await api.when(mona.delete(suspension(max.id))).then(403, anError('STAFF_PROTECTED'));
  });

  it('refuses an unknown member (404), a member (403), a visitor (401)', async () => {
    await api.given(aModerator(mona), registered(otto));
    await api.when(mona.post(suspension(NO_ID), { reason: 'x', period: 'day' })).then(404, anError('NOT_FOUND'));
    await api.when(otto.post(suspension(nora.id), { reason: 'x', period: 'day' })).then(403, anError('FORBIDDEN'));
    await api.when(visitor.delete(suspension(nora.id))).then(401, anError('UNAUTHENTICATED'));
  });
});
