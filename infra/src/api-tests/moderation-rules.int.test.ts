import {
  commentLink,
  DEFAULT_WARNING_REASON,
  WARNING_QUOTE_LENGTH,
  type CommentItem,
  type CommentsPage,
  type Notifications,
  type ReportedComment,
  type TopVotedUser,
} from '@forum/contracts';
import { anyString, objectContaining } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

/** Issue #28's rules about one's own content, reports and warnings (docs/moderation.md), through the whole HTTP stack. */

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(() => forum?.stop());

const { errorOf, getPost } = calls(() => forum);

const { registeredUser, createPost, createComment } = given(() => forum);
const report = (commentId: string, token: string, feedback = 'spam') =>
  forum.api(`/api/comments/${commentId}/report`, { method: 'POST', token, json: { feedback } });
const commentsPage = (postId: string, token?: string, position?: string) =>
  expectStatus<CommentsPage>(forum.api(`/api/posts/${postId}/comments`, { ...(token && { token }), headers: minPositionHeaders(position) }));

describe('#28.2 own posts and comments', () => {
  it('#28.2 a member cannot like or dislike their own post nor report their own comment: 422 with a stable code, nothing appended, the leaderboard unmoved', async () => {
    const author = await registeredUser('Selma Self');
    const other = await registeredUser('Otis Other');
    const { id: postId } = await createPost(author.token, { title: 'My own post' });
    const { id: commentId, position } = await createComment(author.token, postId, 'My own comment');
    const events = await forum.eventCount();

    const put = (vote: string) => forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: author.token, json: { vote } });
    const patch = (likeChange: number, dislikeChange: number) =>
      forum.api(`/api/posts/${postId}/vote`, { method: 'PATCH', token: author.token, json: { likeChange, dislikeChange } });
    for (const refused of [put('up'), put('down'), patch(1, 0), patch(0, 1)]) {
      expect(await errorOf(refused, 422)).toEqual({ code: 'OWN_POST_VOTE', message: 'You cannot vote on your own post.' });
    }
    expect(await errorOf(report(commentId, author.token), 422)).toEqual({ code: 'OWN_COMMENT_REPORT', message: 'You cannot report your own comment.' });
    expect(await forum.eventCount()).toBe(events);

    // what is read says so: the post and the comment are the reader's own (and for no one else)
    expect(await getPost(postId, author.token, position)).toMatchObject({ upVote: 0, downVote: 0, byMe: true, myVote: 'none' });
    expect(await getPost(postId, other.token)).toMatchObject({ byMe: false });
    expect(await getPost(postId)).not.toHaveProperty('byMe');
    expect((await commentsPage(postId, author.token)).comments).toEqual([objectContaining({ _id: commentId, byMe: true })]);
    expect((await commentsPage(postId, other.token)).comments).toEqual([objectContaining({ _id: commentId, byMe: false })]);
    expect((await commentsPage(postId)).comments[0]).not.toHaveProperty('byMe');

    // others still vote and report as before; the author's leaderboard line counts their votes only
    const liked = await expectStatus<{ position: string }>(forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: other.token, json: { vote: 'up' } }));
    await expectStatus(report(commentId, other.token), 201);
    const board = await expectStatus<TopVotedUser[]>(forum.api('/api/users/top-voted', { headers: minPositionHeaders(liked.position) }));
    expect(board.find((row) => row._id === author.id)).toMatchObject({ totalVote: 1 });
  });
});

describe('#28.5 comments the reader reported', () => {
  it('#28.5 the comments a signed-in member reported read as reportedByMe, on both comment lists; visitors (cached or not) and other members do not get it', async () => {
    const author = await registeredUser('Rhea Writer');
    const reporter = await registeredUser('Remy Reporter');
    const other = await registeredUser('Olga Other');
    const { id: postId } = await createPost(author.token);
    const { id: reportedId } = await createComment(author.token, postId, 'Reported one');
    const { id: keptId, position: added } = await createComment(author.token, postId, 'Kept one');

    // a visitor reads first: that answer is kept for visitors
    const before = await commentsPage(postId, undefined, added);
    expect(before.comments.every((c) => !('reportedByMe' in c))).toBe(true);

    const { position } = await expectStatus<{ position: string }>(report(reportedId, reporter.token), 201);
    const flags = (page: CommentsPage) => Object.fromEntries(page.comments.map((c) => [c._id, c.reportedByMe]));
    expect(flags(await commentsPage(postId, reporter.token, position))).toEqual({ [reportedId]: true, [keptId]: false });
    expect(flags(await commentsPage(postId, other.token, position))).toEqual({ [reportedId]: false, [keptId]: false });
    const spec = await expectStatus<CommentItem[]>(forum.api(`/api/comments/${postId}`, { token: reporter.token, headers: minPositionHeaders(position) }));
    expect(Object.fromEntries(spec.map((c) => [c._id, c.reportedByMe]))).toEqual({ [reportedId]: true, [keptId]: false });

    // visitors: from the cache or read afresh, nobody's reports
    for (const visitor of [
      await commentsPage(postId),
      await commentsPage(postId, undefined, position),
      await expectStatus<CommentItem[]>(forum.api(`/api/comments/${postId}`)),
    ]) {
      const items = 'comments' in visitor ? visitor.comments : visitor;
      expect(items.map((c) => 'reportedByMe' in c || 'byMe' in c)).toEqual([false, false]);
    }
  });
});

describe('#28.6 warnings name their comment, once', () => {
  it('#28.6 a warning about a comment names it and its post (the notification: the post title and a short quote); a second one is 409 ALREADY_WARNED, also at once; the queue shows it', async () => {
    const admin = await forum.demoAdmin();
    const author = await registeredUser('Wanda Warned');
    const reporter = await registeredUser('Rolf Reporter');
    const { id: postId } = await createPost(author.token, { title: 'Where the comment was' });
    const long = `${'Rude words, '.repeat(20)}and more.`;
    const { id: commentId } = await createComment(author.token, postId, long);
    const { id: otherId } = await createComment(author.token, postId, 'Fine words');
    await expectStatus(report(commentId, reporter.token), 201);
    await expectStatus(report(otherId, reporter.token), 201);
    const warn = (body: unknown) => forum.api(`/api/admin/warn-user/${author.email}`, { method: 'POST', token: admin.token, json: body });

    const warned = await expectStatus<{ id: string; position: string }>(warn({ commentId }), 201);
    const quote = `${Array.from(long).slice(0, WARNING_QUOTE_LENGTH).join('')}...`;
    const { events } = await forum.store.readStream(`notifications-${author.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'UserWarned', data: { warningId: warned.id, userId: author.id, commentId, postId, commentQuote: quote } });
    // the quote is the member's own text: stored sealed under their content key, as the comment is
    const stored = await forum.db.raw<{ rows: { data: Record<string, unknown> }[] }>(
      `SELECT data FROM eventstore.events WHERE type = 'UserWarned' AND data->>'warningId' = ?`,
      [warned.id],
    );
    expect(stored.rows[0]!.data).not.toHaveProperty('commentQuote');
    expect(JSON.stringify(stored.rows[0]!.data)).not.toContain('Rude words');

    const seen = await expectStatus<Notifications>(forum.api('/api/me/notifications', { token: author.token, headers: minPositionHeaders(warned.position) }));
    expect(seen.notifications).toEqual([
      {
        _id: warned.id,
        kind: 'warning',
        reason: DEFAULT_WARNING_REASON,
        commentId,
        postId,
        postTitle: 'Where the comment was',
        commentQuote: quote,
        createdAt: anyString,
        read: false,
        link: commentLink(postId, commentId),
      },
    ]);

    // once per comment: refused and nothing appended, whoever asks and however many at once
    const before = await forum.eventCount();
    expect(await errorOf(warn({ commentId, reason: 'Again' }), 409)).toEqual({
      code: 'ALREADY_WARNED',
      message: 'This comment has already been warned about.',
    });
    const fresh = (await createComment(author.token, postId, 'Another one')).id;
    const counted = await forum.eventCount();
    expect(counted).toBe(before + 1);
    const answers = await Promise.all(Array.from({ length: 5 }, () => warn({ commentId: fresh })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await forum.eventCount()).toBe(counted + 1);

    // the moderators' queue: the warned comment says so, the other does not
    const rows = await expectStatus<ReportedComment[]>(
      forum.api('/api/admin/reported-comments', { token: admin.token, headers: minPositionHeaders(warned.position) }),
    );
    expect(Object.fromEntries(rows.filter((r) => r.postId === postId).map((r) => [r._id, r.warned]))).toEqual({ [commentId]: true, [otherId]: false });
  });
});
