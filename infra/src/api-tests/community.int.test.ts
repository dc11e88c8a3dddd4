import {
  COMMENT_MAX,
  compareLogPositions,
  DEFAULT_WARNING_REASON,
  LEADERBOARD_SIZE,
  PAGE_SIZE,
  parsePositionToken,
  positionToken,
  RECENT_POSTS,
  type CommentItem,
  type ErrorBody,
  type Notifications,
  type PostDetail,
  type PostListItem,
  type PostsPage,
  type ReportedComment,
  type TopVotedUser,
  type UserProfile,
} from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';
import { json } from '../testing/json.ts';

let forum: TestForum;
let admin: string;
let adminId: string;

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '20' });
  admin = await forum.tokenFor('admin@forum.local');
  adminId = ((await (await forum.api('/api/me', { token: admin })).json()) as { _id: string })._id;
});
afterAll(() => forum?.stop());

type User = Awaited<ReturnType<TestForum['newUser']>>;

const eventCount = () => forum.eventCount();
const streamTypes = async (id: string) => (await forum.store.readStream(id)).events.map((e) => e.type);
const errorOf = async (response: Response | Promise<Response>, status: number) => (await json<ErrorBody>(response, status)).error;

/** A user who has made one request, so that later "appends nothing" counts are not disturbed by their registration. */
async function registeredUser(name: string): Promise<User> {
  const user = await forum.newUser(name);
  await json(forum.api('/api/me', { token: user.token }));
  return user;
}
async function createPost(token: string, post: { title?: string; description?: string; tags?: string[] } = {}) {
  return json<{ id: string; position: string }>(
    forum.api('/api/posts', { method: 'POST', token, json: { title: 'A post', description: 'Some text', tags: [], ...post } }),
    201,
  );
}
const getPost = (id: string, token?: string, position?: string) => json<PostDetail>(forum.api(`/api/posts/${id}`, { ...(token && { token }), headers: minPositionHeaders(position) }));
const setVote = (postId: string, token: string, vote: string) => forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token, json: { vote } });
const changeVote = (postId: string, token: string, likeChange: number, dislikeChange: number) =>
  forum.api(`/api/posts/${postId}/vote`, { method: 'PATCH', token, json: { likeChange, dislikeChange } });
const addComment = (token: string, postId: string, text: string) => forum.api('/api/comments', { method: 'POST', token, json: { postId, text } });
const comments = (postId: string, token?: string, position?: string) =>
  json<CommentItem[]>(forum.api(`/api/comments/${postId}`, { ...(token && { token }), headers: minPositionHeaders(position) }));
const report = (commentId: string, token: string, feedback: string) => forum.api(`/api/comments/${commentId}/report`, { method: 'POST', token, json: { feedback } });
const reported = (position?: string) => json<ReportedComment[]>(forum.api('/api/admin/reported-comments', { token: admin, headers: minPositionHeaders(position) }));
const deletePost = (id: string, token: string) => json<{ position: string }>(forum.api(`/api/my-posts/${id}`, { method: 'DELETE', token }));
const topVoted = (position?: string) => json<TopVotedUser[]>(forum.api('/api/users/top-voted', { headers: minPositionHeaders(position) }));
const NO_POST = '00000000-0000-4000-8000-000000000000';

describe('votes: PUT /api/posts/:id/vote', () => {
  it('sets the caller’s vote; the post’s counts and the caller’s myVote follow; the same vote again appends nothing', async () => {
    const author = await registeredUser('Vera');
    const voter = await registeredUser('Walt');
    const { id } = await createPost(author.token);

    const up = await json<{ id: string; position: string; vote: string }>(setVote(id, voter.token, 'up'));
    expect(up).toEqual({ id, position: expect.any(String), vote: 'up' });
    expect(await getPost(id, voter.token, up.position)).toMatchObject({ upVote: 1, downVote: 0, myVote: 'up' });
    expect(await getPost(id, author.token)).toMatchObject({ upVote: 1, myVote: 'none' });
    expect(await getPost(id)).not.toHaveProperty('myVote');

    const events = await eventCount();
    const again = await forum.api(`/api/posts/${id}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'up' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('X-Event-Position')).toBeNull();
    expect(await again.json()).toEqual({ id, vote: 'up' });
    expect(await eventCount()).toBe(events);

    const down = await json<{ position: string }>(setVote(id, voter.token, 'down'));
    expect(await getPost(id, voter.token, down.position)).toMatchObject({ upVote: 0, downVote: 1, myVote: 'down' });
    const none = await json<{ position: string }>(setVote(id, voter.token, 'none'));
    expect(await getPost(id, voter.token, none.position)).toMatchObject({ upVote: 0, downVote: 0, myVote: 'none' });

    const { events: cast } = await forum.store.readStream(`vote-${id}-${voter.id}`);
    expect(cast.map((e) => e.data)).toEqual([
      expect.objectContaining({ postId: id, userId: voter.id, previous: 'none', vote: 'up' }),
      expect.objectContaining({ previous: 'up', vote: 'down' }),
      expect.objectContaining({ previous: 'down', vote: 'none' }),
    ]);
    expect(cast[0]!.metadata.actorId).toBe(voter.id);
  });

  it('answers 400 for a bad vote or post id, 401 without a token, 404 for an unknown or deleted post, and appends nothing', async () => {
    const author = await registeredUser('Yuri');
    const { id } = await createPost(author.token);
    const events = await eventCount();
    expect((await errorOf(setVote(id, author.token, 'sideways'), 400)).details).toHaveProperty('vote');
    expect((await errorOf(forum.api(`/api/posts/${id}/vote`, { method: 'PUT', token: author.token, json: {} }), 400)).code).toBe('VALIDATION_FAILED');
    await errorOf(setVote('nope', author.token, 'up'), 400);
    await errorOf(forum.api(`/api/posts/${id}/vote`, { method: 'PUT', json: { vote: 'up' } }), 401);
    await errorOf(setVote(NO_POST, author.token, 'up'), 404);
    expect(await eventCount()).toBe(events);
    await deletePost(id, author.token);
    const afterDelete = await eventCount();
    expect((await errorOf(setVote(id, author.token, 'up'), 404)).code).toBe('NOT_FOUND');
    expect(await eventCount()).toBe(afterDelete);
  });

  it('orders the home page by popularity (up − down, then newest)', async () => {
    const author = await registeredUser('Zora');
    const voters = await Promise.all([registeredUser('V1'), registeredUser('V2')]);
    const liked = await createPost(author.token, { title: 'Liked' });
    const disliked = await createPost(author.token, { title: 'Disliked' });
    await json(setVote(liked.id, voters[0].token, 'up'));
    await json(setVote(liked.id, voters[1].token, 'up'));
    const { position } = await json<{ position: string }>(setVote(disliked.id, voters[0].token, 'down'));
    const page = await json<PostsPage>(forum.api('/api/posts?sort=popularity', { headers: minPositionHeaders(position) }));
    expect(page.posts[0]).toMatchObject({ _id: liked.id, upVote: 2, downVote: 0 });
    const all: PostListItem[] = [];
    for (let p = 1; p <= Math.ceil(page.totalCount / PAGE_SIZE); p++) all.push(...(await json<PostsPage>(forum.api(`/api/posts?sort=popularity&page=${p}`))).posts);
    expect(all.at(-1)).toMatchObject({ _id: disliked.id, downVote: 1 });
  });

  it('stays exact with 100 users voting on one post at once (70 up, 30 down): all succeed', { timeout: 120_000 }, async () => {
    const author = await registeredUser('Popular Author');
    const { id } = await createPost(author.token, { title: 'Vote on me' });
    const voters: User[] = [];
    for (let i = 0; i < 100; i += 20) voters.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => forum.newUser(`Voter ${i + j}`)))));
    const answers = await Promise.all(voters.map((voter, i) => setVote(id, voter.token, i < 70 ? 'up' : 'down')));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    const positions = await Promise.all(answers.map(async (a) => parsePositionToken(((await a.json()) as { position: string }).position)!));
    const last = positionToken(positions.sort(compareLogPositions).at(-1)!);
    expect(await streamTypes(`vote-${id}-${voters[0]!.id}`)).toEqual(['VoteCast']);
    const post = await getPost(id, undefined, last);
    expect(post).toMatchObject({ upVote: 70, downVote: 30 });
    expect((await topVoted(last)).find((u) => u._id === author.id)).toMatchObject({ totalVote: 70 });
  });
});

describe('votes: PATCH /api/posts/:id/vote (the spec’s call)', () => {
  it('accepts the legal transitions of spec §4 and answers 409 ILLEGAL_VOTE_TRANSITION with the current vote otherwise', async () => {
    const author = await registeredUser('Pat Author');
    const voter = await registeredUser('Pat Voter');
    const { id } = await createPost(author.token);
    expect(await json(changeVote(id, voter.token, 1, 0))).toMatchObject({ vote: 'up' }); // like
    expect(await json(changeVote(id, voter.token, -1, 0))).toMatchObject({ vote: 'none' }); // like again: undo
    expect(await json(changeVote(id, voter.token, 0, 1))).toMatchObject({ vote: 'down' }); // dislike
    const switched = await json<{ position: string; vote: string }>(changeVote(id, voter.token, 1, -1)); // like when disliked
    expect(switched.vote).toBe('up');
    expect(await getPost(id, voter.token, switched.position)).toMatchObject({ upVote: 1, downVote: 0, myVote: 'up' });

    const events = await eventCount();
    const illegal = await errorOf(changeVote(id, voter.token, 1, 0), 409);
    expect(illegal).toMatchObject({ code: 'ILLEGAL_VOTE_TRANSITION', details: { current: 'up' } });
    expect((await errorOf(changeVote(id, voter.token, 0, 0), 409)).code).toBe('ILLEGAL_VOTE_TRANSITION');
    expect(await eventCount()).toBe(events);
  });

  it('answers 400 for changes outside -1..1, 401 without a token and 404 for an unknown post, appending nothing', async () => {
    const voter = await registeredUser('Quentin');
    const events = await eventCount();
    expect(Object.keys((await errorOf(changeVote(NO_POST, voter.token, 2, 0), 400)).details as object)).toEqual(['likeChange']);
    await errorOf(forum.api(`/api/posts/${NO_POST}/vote`, { method: 'PATCH', token: voter.token, json: { likeChange: 1 } }), 400);
    await errorOf(forum.api(`/api/posts/${NO_POST}/vote`, { method: 'PATCH', json: { likeChange: 1, dislikeChange: 0 } }), 401);
    await errorOf(changeVote(NO_POST, voter.token, 1, 0), 404);
    expect(await eventCount()).toBe(events);
  });
});

describe('comments', () => {
  it('POST /api/comments adds a trimmed comment from the caller’s record; GET lists them oldest first; the post’s commentCount follows', async () => {
    const author = await registeredUser('Carla');
    const bob = await registeredUser('Bobby');
    const { id: postId } = await createPost(author.token);
    const first = await json<{ id: string; position: string }>(addComment(bob.token, postId, '  First!  '), 201);
    expect(first).toEqual({ id: expect.any(String), position: expect.any(String) });
    const second = await json<{ id: string; position: string }>(
      forum.api('/api/comments', { method: 'POST', token: author.token, json: { postId, text: 'Thanks', authorName: 'Mallory', createdAt: '1999-01-01T00:00:00Z' } }),
      201,
    );

    const visitorView = await comments(postId, undefined, second.position);
    expect(visitorView).toEqual([
      { _id: first.id, postId, text: 'First!', authorName: 'Bobby', authorPhoto: '', createdAt: expect.any(String) },
      { _id: second.id, postId, text: 'Thanks', authorName: 'Carla', authorPhoto: '', createdAt: expect.any(String) },
    ]);
    expect(Date.parse(visitorView[1]!.createdAt)).toBeGreaterThan(Date.parse('2020-01-01'));
    // emails only for the comment's own author and admins
    const bobView = await comments(postId, bob.token);
    expect(bobView[0]).toMatchObject({ authorEmail: bob.email });
    expect(bobView[1]).not.toHaveProperty('authorEmail');
    expect((await comments(postId, admin)).map((c) => c.authorEmail)).toEqual([bob.email, author.email]);
    expect(await getPost(postId)).toMatchObject({ commentCount: 2 });
    expect((await forum.store.readStream(`comment-${first.id}`)).events[0]).toMatchObject({ type: 'CommentAdded', metadata: { actorId: bob.id } });
  });

  it('refuses an empty or too long text and a bad post id with 400, a visitor with 401, an unknown or deleted post with 404, appending nothing', async () => {
    const user = await registeredUser('Dora');
    const { id: postId } = await createPost(user.token);
    const events = await eventCount();
    expect((await errorOf(addComment(user.token, postId, '   '), 400)).details).toEqual({ text: ['Comment must not be empty'] });
    expect((await errorOf(addComment(user.token, postId, 'x'.repeat(COMMENT_MAX + 1)), 400)).details).toHaveProperty('text');
    expect((await errorOf(forum.api('/api/comments', { method: 'POST', token: user.token, json: { postId } }), 400)).details).toHaveProperty('text');
    expect((await errorOf(addComment(user.token, 'nope', 'Hi'), 400)).details).toHaveProperty('postId');
    await errorOf(forum.api('/api/comments', { method: 'POST', json: { postId, text: 'Hi' } }), 401);
    await errorOf(addComment(user.token, NO_POST, 'Hi'), 404);
    expect(await eventCount()).toBe(events);
    await json(addComment(user.token, postId, 'x'.repeat(COMMENT_MAX)), 201);
    await deletePost(postId, user.token);
    const afterDelete = await eventCount();
    await errorOf(addComment(user.token, postId, 'Too late'), 404);
    expect(await eventCount()).toBe(afterDelete);
  });

  it('GET /api/comments/:postId answers 404 for an unknown post and 400 for a malformed id, and [] for a post without comments', async () => {
    await errorOf(forum.api(`/api/comments/${NO_POST}`), 404);
    await errorOf(forum.api('/api/comments/nope'), 400);
    const author = await registeredUser('Quiet');
    const { id: postId, position } = await createPost(author.token);
    expect(await comments(postId, undefined, position)).toEqual([]);
  });

  it('deleting a post takes its comments out of the lists, the counts and the reported list', async () => {
    const author = await registeredUser('Eden');
    const commenter = await registeredUser('Finn');
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await json<{ id: string }>(addComment(commenter.token, postId, 'Spam spam'), 201);
    const { position } = await json<{ position: string }>(report(commentId, author.token, 'spam'), 201);
    expect((await reported(position)).some((r) => r._id === commentId)).toBe(true);
    const before = await json<UserProfile>(forum.api(`/api/user-profile/${commenter.email}`));
    expect(before.stats.comments).toBe(1);

    const deleted = await deletePost(postId, author.token);
    expect((await reported(deleted.position)).some((r) => r._id === commentId)).toBe(false);
    await errorOf(forum.api(`/api/comments/${postId}`), 404);
    expect((await json<UserProfile>(forum.api(`/api/user-profile/${commenter.email}`))).stats.comments).toBe(0);
    const remaining = await forum.db.raw<{ rows: unknown[] }>('SELECT 1 FROM read.comments WHERE post_id = ?', [postId]);
    expect(remaining.rows).toHaveLength(0);
    // its comment can no longer be reported
    await errorOf(report(commentId, commenter.token, 'spam'), 404);
  });
});

describe('reports', () => {
  it('POST /api/comments/:commentId/report records the report with the reporter from the token; the admin list has one row per report with the count per comment', async () => {
    const author = await registeredUser('Gina');
    const troll = await registeredUser('Troll');
    const reporters = [await registeredUser('Hugo'), await registeredUser('Iris')];
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await json<{ id: string }>(addComment(troll.token, postId, 'You are all wrong'), 201);
    const first = await json<{ id: string; position: string }>(
      forum.api(`/api/comments/${commentId}/report`, { method: 'POST', token: reporters[0]!.token, json: { feedback: 'offensive', reporterEmail: 'someone@else.test' } }),
      201,
    );
    expect(first).toEqual({ id: commentId, position: expect.any(String) });
    const second = await json<{ position: string }>(report(commentId, reporters[1]!.token, 'spam'), 201);

    const rows = (await reported(second.position)).filter((r) => r._id === commentId);
    expect(rows).toEqual([
      {
        _id: commentId,
        reportId: expect.any(String),
        text: 'You are all wrong',
        postId,
        author: { name: 'Troll', email: troll.email, photoURL: '' },
        reporter: { name: 'Iris', email: reporters[1]!.email, photoURL: '' },
        feedback: 'spam',
        reportedAt: expect.any(String),
        reportCount: 2,
        warned: false,
      },
      expect.objectContaining({ reporter: { name: 'Hugo', email: reporters[0]!.email, photoURL: '' }, feedback: 'offensive', reportCount: 2 }),
    ]);
    expect(rows[0]!.reportId).not.toBe(rows[1]!.reportId);

    // react-admin's protocol: an array with ids and Content-Range
    const ranged = await forum.api('/api/admin/reported-comments?range=[0,0]&sort=["reportedAt","DESC"]', { token: admin });
    expect(ranged.status).toBe(200);
    expect(ranged.headers.get('Content-Range')).toMatch(/^reported-comments 0-0\/\d+$/);
    const [item] = (await ranged.json()) as (ReportedComment & { id: string })[];
    expect(item).toMatchObject({ id: rows[0]!.reportId, _id: commentId });
  });

  it('a second report of one comment by one user answers 409 ALREADY_REPORTED, also with ten at once: one report', async () => {
    const author = await registeredUser('Jack');
    const reporter = await registeredUser('Kara');
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await json<{ id: string }>(addComment(author.token, postId, 'Hmm'), 201);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => report(commentId, reporter.token, i % 2 ? 'spam' : 'inappropriate')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const conflict = (await answers[statuses.indexOf(409)]!.json()) as ErrorBody;
    expect(conflict.error.code).toBe('ALREADY_REPORTED');
    expect(await streamTypes(`report-${commentId}-${reporter.id}`)).toEqual(['CommentReported']);
    const { position } = (await answers[statuses.indexOf(201)]!.json()) as { position: string };
    expect((await reported(position)).filter((r) => r._id === commentId)).toHaveLength(1);
    expect((await errorOf(report(commentId, reporter.token, 'spam'), 409)).code).toBe('ALREADY_REPORTED');
  });

  it('answers 400 for a bad feedback or id, 401 without a token and 404 for an unknown comment, appending nothing', async () => {
    const user = await registeredUser('Liam');
    const { id: postId } = await createPost(user.token);
    const { id: commentId } = await json<{ id: string }>(addComment(user.token, postId, 'Hi'), 201);
    const events = await eventCount();
    expect((await errorOf(report(commentId, user.token, 'boring'), 400)).details).toHaveProperty('feedback');
    await errorOf(forum.api(`/api/comments/${commentId}/report`, { method: 'POST', token: user.token, json: {} }), 400);
    await errorOf(report('nope', user.token, 'spam'), 400);
    await errorOf(forum.api(`/api/comments/${commentId}/report`, { method: 'POST', json: { feedback: 'spam' } }), 401);
    await errorOf(report(NO_POST, user.token, 'spam'), 404);
    expect(await eventCount()).toBe(events);
  });

  it('GET /api/admin/reported-comments is for admins: 401 without a token, 403 for a user', async () => {
    const user = await registeredUser('Mona');
    await errorOf(forum.api('/api/admin/reported-comments'), 401);
    expect((await errorOf(forum.api('/api/admin/reported-comments', { token: user.token }), 403)).code).toBe('FORBIDDEN');
  });
});

describe('moderation', () => {
  it('DELETE /api/admin/comments/:commentId removes the comment everywhere and resolves its reports; the admin is in the event’s metadata', async () => {
    const author = await registeredUser('Nora');
    const troll = await registeredUser('Otto');
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await json<{ id: string }>(addComment(troll.token, postId, 'Buy my stuff'), 201);
    const kept = await json<{ id: string }>(addComment(author.token, postId, 'Welcome'), 201);
    const { position } = await json<{ position: string }>(report(commentId, author.token, 'spam'), 201);
    expect((await reported(position)).some((r) => r._id === commentId)).toBe(true);

    const removed = await json<{ id: string; position: string }>(forum.api(`/api/admin/comments/${commentId}`, { method: 'DELETE', token: admin }));
    expect(removed).toEqual({ id: commentId, position: expect.any(String) });
    expect((await comments(postId, undefined, removed.position)).map((c) => c._id)).toEqual([kept.id]);
    expect(await getPost(postId)).toMatchObject({ commentCount: 1 });
    expect((await reported()).some((r) => r._id === commentId)).toBe(false);
    const { events } = await forum.store.readStream(`comment-${commentId}`);
    expect(events.at(-1)).toMatchObject({ type: 'CommentRemoved', data: { commentId, postId, authorId: troll.id, removedBy: adminId }, metadata: { actorId: adminId } });
    // removed: gone for everyone
    await errorOf(forum.api(`/api/admin/comments/${commentId}`, { method: 'DELETE', token: admin }), 404);
    await errorOf(report(commentId, author.token, 'spam'), 404);
  });

  it('refuses a user (403, even the comment’s author) and a visitor (401); answers 404 for an unknown comment and 400 for a bad id', async () => {
    const user = await registeredUser('Pia');
    const { id: postId } = await createPost(user.token);
    const { id: commentId } = await json<{ id: string }>(addComment(user.token, postId, 'Mine'), 201);
    const events = await eventCount();
    expect((await errorOf(forum.api(`/api/admin/comments/${commentId}`, { method: 'DELETE', token: user.token }), 403)).code).toBe('FORBIDDEN');
    await errorOf(forum.api(`/api/admin/comments/${commentId}`, { method: 'DELETE' }), 401);
    await errorOf(forum.api(`/api/admin/comments/${NO_POST}`, { method: 'DELETE', token: admin }), 404);
    await errorOf(forum.api('/api/admin/comments/nope', { method: 'DELETE', token: admin }), 400);
    expect(await eventCount()).toBe(events);
  });

  it('POST /api/admin/warn-user/:authorEmail warns the user, who sees it in GET /api/me/notifications and marks it read', async () => {
    const user = await registeredUser('Quinn');
    const { id: postId } = await createPost(user.token);
    const { id: commentId } = await json<{ id: string }>(addComment(user.token, postId, 'Rude words'), 201);

    const plain = await json<{ id: string; position: string }>(forum.api(`/api/admin/warn-user/${user.email.toUpperCase()}`, { method: 'POST', token: admin }), 201);
    const named = await json<{ id: string; position: string }>(
      forum.api(`/api/admin/warn-user/${user.email}`, { method: 'POST', token: admin, json: { reason: 'Please stay polite', commentId } }),
      201,
    );
    const { events } = await forum.store.readStream(`notifications-${user.id}`);
    expect(events.map((e) => e.type)).toEqual(['UserWarned', 'UserWarned']);
    expect(events[1]).toMatchObject({ data: { warningId: named.id, userId: user.id, reason: 'Please stay polite', commentId, warnedBy: adminId }, metadata: { actorId: adminId } });

    const seen = await json<Notifications>(forum.api('/api/me/notifications', { token: user.token, headers: minPositionHeaders(named.position) }));
    expect(seen).toEqual({
      notifications: [
        { _id: named.id, kind: 'warning', reason: 'Please stay polite', commentId, postId, postTitle: 'A post', commentQuote: 'Rude words', createdAt: expect.any(String), read: false },
        { _id: plain.id, kind: 'warning', reason: DEFAULT_WARNING_REASON, createdAt: expect.any(String), read: false },
      ],
      unread: 2,
      totalCount: 2,
    });

    const one = await json<{ position: string }>(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { ids: [plain.id] } }));
    expect((await json<Notifications>(forum.api('/api/me/notifications', { token: user.token, headers: minPositionHeaders(one.position) }))).unread).toBe(1);
    const all = await json<{ position: string }>(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token }));
    const after = await json<Notifications>(forum.api('/api/me/notifications', { token: user.token, headers: minPositionHeaders(all.position) }));
    expect(after.unread).toBe(0);
    expect(after.notifications.every((n) => n.read)).toBe(true);
    // nothing left to read: appends nothing
    const count = await eventCount();
    const again = await forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { upTo: new Date().toISOString() } });
    expect(again.status).toBe(200);
    expect(again.headers.get('X-Event-Position')).toBeNull();
    expect(await eventCount()).toBe(count);
    expect(await streamTypes(`notifications-${user.id}`)).toEqual(['UserWarned', 'UserWarned', 'WarningsRead', 'WarningsRead']);
  });

  it('warn-user: 403 for a user, 401 for a visitor, 404 for an unknown email or a comment not by that user, 400 for bad input; appends nothing', async () => {
    const user = await registeredUser('Rita');
    const other = await registeredUser('Sam');
    const { id: postId } = await createPost(other.token);
    const { id: othersComment } = await json<{ id: string }>(addComment(other.token, postId, 'Not Rita'), 201);
    const events = await eventCount();
    const warn = (email: string, token?: string, body?: unknown) =>
      forum.api(`/api/admin/warn-user/${email}`, { method: 'POST', ...(token && { token }), ...(body !== undefined && { json: body }) });
    expect((await errorOf(warn(other.email, user.token), 403)).code).toBe('FORBIDDEN');
    await errorOf(warn('nobody@forum.test', user.token), 403); // a user learns nothing about which emails exist
    await errorOf(warn(other.email), 401);
    expect((await errorOf(warn('nobody@forum.test', admin), 404)).message).toBe('No such user');
    await errorOf(warn(user.email, admin, { commentId: othersComment }), 404);
    await errorOf(warn('not-an-email', admin), 400);
    expect((await errorOf(warn(user.email, admin, { reason: 'x'.repeat(501) }), 400)).details).toHaveProperty('reason');
    await errorOf(warn(user.email, admin, { commentId: 'nope' }), 400);
    expect(await eventCount()).toBe(events);
  });

  it('GET /api/me/notifications needs a token; marking read refuses both upTo and ids, and bad ids, with 400', async () => {
    const user = await registeredUser('Tess');
    await errorOf(forum.api('/api/me/notifications'), 401);
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST' }), 401);
    expect(await json(forum.api('/api/me/notifications', { token: user.token }))).toEqual({ notifications: [], unread: 0, totalCount: 0 });
    const events = await eventCount();
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { upTo: new Date().toISOString(), ids: [NO_POST] } }), 400);
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { ids: ['nope'] } }), 400);
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { upTo: 'yesterday' } }), 400);
    expect(await eventCount()).toBe(events);
  });
});

describe('leaderboard: GET /api/users/top-voted', () => {
  it(`lists users by up-votes received on their live posts, ties by name, without emails; users with none are not listed; at most ${LEADERBOARD_SIZE}`, async () => {
    const zed = await registeredUser('Zed Tie');
    const abe = await registeredUser('Abe Tie');
    const low = await registeredUser('Low Votes');
    const none = await registeredUser('No Votes');
    const voters = await Promise.all([registeredUser('LV1'), registeredUser('LV2'), registeredUser('LV3')]);
    const zedPost = await createPost(zed.token);
    const abePost = await createPost(abe.token);
    const lowPost = await createPost(low.token);
    await createPost(none.token);
    for (const voter of voters) {
      await json(setVote(zedPost.id, voter.token, 'up'));
      await json(setVote(abePost.id, voter.token, 'up'));
    }
    await json(setVote(lowPost.id, voters[0].token, 'up'));
    const { position } = await json<{ position: string }>(setVote(lowPost.id, voters[1].token, 'down'));

    const board = await topVoted(position);
    expect(board.length).toBeLessThanOrEqual(LEADERBOARD_SIZE);
    const ids = board.map((u) => u._id);
    expect(ids.indexOf(abe.id)).toBeLessThan(ids.indexOf(zed.id));
    expect(ids.indexOf(zed.id)).toBeLessThan(ids.indexOf(low.id));
    expect(ids).not.toContain(none.id);
    expect(board.find((u) => u._id === abe.id)).toEqual({ _id: abe.id, name: 'Abe Tie', photoURL: '', totalVote: 3 });
    expect(board.find((u) => u._id === low.id)).toMatchObject({ totalVote: 1 });
    for (const entry of board) expect(Object.keys(entry).sort()).toEqual(['_id', 'name', 'photoURL', 'totalVote']);
    const totals = board.map((u) => u.totalVote);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));

    // a deleted post's up-votes no longer count
    const deleted = await deletePost(lowPost.id, low.token);
    expect((await topVoted(deleted.position)).map((u) => u._id)).not.toContain(low.id);
  });
});

describe('profile: GET /api/user-profile/:email', () => {
  it('answers the user, three statistics and the 3 newest live posts; the email only for the user themself and admins', async () => {
    const user = await registeredUser('Uma');
    const fan = await registeredUser('Fan');
    const critic = await registeredUser('Critic');
    const posts = [];
    for (let i = 0; i < 4; i++) posts.push(await createPost(user.token, { title: `Uma ${i}` }));
    await json(setVote(posts[3]!.id, fan.token, 'up'));
    await json(setVote(posts[2]!.id, fan.token, 'up'));
    await json(setVote(posts[2]!.id, critic.token, 'down'));
    await json(addComment(user.token, posts[0]!.id, 'Mine'), 201);
    await json(addComment(fan.token, posts[3]!.id, 'Great'), 201);
    const { position } = await json<{ position: string }>(addComment(user.token, posts[3]!.id, 'Thanks'), 201);

    const visitor = await json<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { headers: minPositionHeaders(position) }));
    expect(visitor).toEqual({
      user: { _id: user.id, name: 'Uma', photoURL: '', role: 'user', isMember: false, badge: 'Bronze' },
      stats: { posts: 4, comments: 2, commentsReceived: 3, upVotes: 2 },
      recentPosts: [
        expect.objectContaining({ _id: posts[3]!.id, title: 'Uma 3', upVote: 1, downVote: 0, commentCount: 2 }),
        expect.objectContaining({ _id: posts[2]!.id, upVote: 1, downVote: 1, commentCount: 0 }),
        expect.objectContaining({ _id: posts[1]!.id, upVote: 0 }),
      ],
    });
    expect(visitor.recentPosts).toHaveLength(RECENT_POSTS);
    expect((await json<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { token: fan.token }))).user).not.toHaveProperty('email');
    expect((await json<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { token: user.token }))).user.email).toBe(user.email);
    expect((await json<UserProfile>(forum.api(`/api/user-profile/${user.email.toUpperCase()}`, { token: admin }))).user.email).toBe(user.email);

    // a deleted post leaves the statistics: its post, its up-vote and its comments
    const deleted = await deletePost(posts[3]!.id, user.token);
    const after = await json<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { headers: minPositionHeaders(deleted.position) }));
    expect(after.stats).toEqual({ posts: 3, comments: 1, commentsReceived: 1, upVotes: 1 });
    expect(after.recentPosts.map((p) => p._id)).toEqual([posts[2]!.id, posts[1]!.id, posts[0]!.id]);
  });

  it('shows the Gold badge of a member', async () => {
    const member = await registeredUser('Goldie');
    const { position } = await json<{ position: string }>(forum.api(`/api/users/membership/${member.email}`, { method: 'PATCH', token: member.token }));
    const profile = await json<UserProfile>(forum.api(`/api/user-profile/${member.email}`, { headers: minPositionHeaders(position) }));
    expect(profile.user).toMatchObject({ isMember: true, badge: 'Gold' });
    expect(profile.stats).toEqual({ posts: 0, comments: 0, commentsReceived: 0, upVotes: 0 });
    expect(profile.recentPosts).toEqual([]);
  });

  it('answers 404 for an unknown email and 400 for a malformed one', async () => {
    await errorOf(forum.api('/api/user-profile/nobody@forum.test'), 404);
    await errorOf(forum.api('/api/user-profile/not-an-email'), 400);
  });
});

describe('search: GET /api/posts/search', () => {
  it('?tag= ignores case and answers the spec’s array (newest first, total in X-Total-Count); with page, {posts, totalCount} 5 a page', async () => {
    const authors = [await registeredUser('Tag One'), await registeredUser('Tag Two')];
    const created = [];
    for (let i = 0; i < 7; i++) created.push(await createPost(authors[i % 2]!.token, { title: `Career ${i}`, tags: [i % 2 ? 'career' : 'CAREER', 'Design'] }));
    const position = created.at(-1)!.position;
    const response = await forum.api('/api/posts/search?tag=cAreer', { headers: minPositionHeaders(position) });
    expect(response.status).toBe(200);
    const all = (await response.json()) as PostListItem[];
    const total = Number(response.headers.get('X-Total-Count'));
    expect(total).toBe(all.length);
    expect(all.slice(0, 7).map((p) => p._id)).toEqual(created.map((c) => c.id).reverse());
    expect(all[0]).toMatchObject({ title: 'Career 6', tags: ['Career', 'Design'], summary: 'Some text' });
    expect(all[0]).not.toHaveProperty('authorEmail');

    const page1 = await json<PostsPage>(forum.api('/api/posts/search?tag=career&page=1'));
    expect(page1.totalCount).toBe(total);
    expect(page1.posts).toHaveLength(PAGE_SIZE);
    const page2 = await json<PostsPage>(forum.api('/api/posts/search?tag=career&page=2'));
    expect(page2.posts.map((p) => p._id)).toEqual(all.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((p) => p._id));
    expect(await json(forum.api('/api/posts/search?tag=no-such-tag'))).toEqual([]);

    // a deleted post leaves the results and the count
    const deleted = await deletePost(created[6]!.id, authors[0]!.token);
    const afterDelete = await json<PostsPage>(forum.api('/api/posts/search?tag=career&page=1', { headers: minPositionHeaders(deleted.position) }));
    expect(afterDelete.totalCount).toBe(total - 1);
    expect(afterDelete.posts.map((p) => p._id)).not.toContain(created[6]!.id);
  });

  it('?q= is ranked full-text search over title and description (web-search syntax), paged', async () => {
    const user = await registeredUser('Searcher');
    const inTitle = await createPost(user.token, { title: 'Zanzibar travel notes', description: 'Islands and spices' });
    const inText = await createPost(user.token, { title: 'Holiday', description: 'We flew to Zanzibar last spring and loved it' });
    const { position } = await createPost(user.token, { title: 'Zanzibar ferries', description: 'Boats between islands' });

    const hits = await json<PostsPage>(forum.api('/api/posts/search?q=zanzibar', { headers: minPositionHeaders(position) }));
    expect(hits.totalCount).toBe(3);
    expect(hits.posts.at(-1)!._id).toBe(inText.id); // a title match ranks above a description match
    const phrase = await json<PostsPage>(forum.api(`/api/posts/search?q=${encodeURIComponent('zanzibar -ferries islands')}`));
    expect(phrase.posts.map((p) => p._id)).toEqual([inTitle.id]);
    // English stemming: "spice" finds "spices"
    expect((await json<PostsPage>(forum.api('/api/posts/search?q=spice'))).posts.map((p) => p._id)).toEqual([inTitle.id]);
    expect(await json(forum.api('/api/posts/search?q=qwertyuiopasdf'))).toEqual({ posts: [], totalCount: 0, totalCountCapped: false });
    expect(await json(forum.api('/api/posts/search?q=zanzibar&page=2'))).toEqual({ posts: [], totalCount: 3, totalCountCapped: false });
    // combined with a tag
    expect(await json(forum.api('/api/posts/search?q=zanzibar&tag=react'))).toEqual({ posts: [], totalCount: 0, totalCountCapped: false });
  });

  it('answers 400 without tag or q, with an empty one, or with a bad page', async () => {
    for (const query of ['', '?q=', '?q=%20%20', '?tag=', '?tag=react&page=0', '?q=x&page=abc']) {
      expect((await errorOf(forum.api(`/api/posts/search${query}`), 400)).code, query).toBe('VALIDATION_FAILED');
    }
  });
});
