import type { CommentItem, CommentsPage, PostDetail } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

/**
 * A post and its comments are read once for everyone at a version of the read side (PostCache):
 * visitors and members get the same body, each with only their own fields beside it (their vote,
 * byMe, reportedByMe, an email they may see), in the keys' order of before.
 */
let forum: TestForum;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
  // registered before the tests: a first request appends an event, which moves the read side's version
  await forum.register(admin.token);
});
afterAll(() => forum?.stop());

const { getPost, setVote } = calls(() => forum);
const { registeredUser, createPost, createComment } = given(() => forum);
/** The answer's text, as it came. */
const text = async (path: string, token?: string, position?: string) => {
  const response = await forum.api(path, { ...(token ? { token } : {}), headers: minPositionHeaders(position) });
  expect(response.status).toBe(200);
  return response.text();
};
const json = (value: unknown) => JSON.stringify(value);
/** Changes a read model's row behind the query side's back: in the table its read view shows. */
const changeBehind = async (view: 'posts' | 'comments', set: string, value: string, id: string) => {
  const { rows } = await forum.db.raw<{ rows: { table_schema: string; table_name: string }[] }>(
    `SELECT table_schema, table_name FROM information_schema.view_table_usage WHERE view_schema = 'read' AND view_name = ? AND table_name = ?`,
    [view, view],
  );
  const { table_schema: schema, table_name: table } = rows[0]!;
  await forum.db.raw(`UPDATE ??.?? SET ?? = ? WHERE id = ?`, [schema, table, set, value, id]);
};

describe('a post and its comments, shared by visitors and members', () => {
  it("gives everyone the same post, each with their own fields: the voter's vote, the author's and an admin's email, a visitor's nothing", async () => {
    const author = await registeredUser('Ada Author');
    const voter = await registeredUser('Val Voter');
    const { id } = await createPost(author.token, { title: 'Shared', description: 'One body for all', tags: [] });
    const { position } = await expectStatus<{ position: string }>(setVote(id, voter.token, 'up'));
    const path = `/api/posts/${id}`;
    const visitor = JSON.parse(await text(path, undefined, position)) as PostDetail;
    expect(visitor).toMatchObject({ _id: id, title: 'Shared', upVote: 1 });
    expect(Object.keys(visitor)).toEqual([
      '_id',
      'title',
      'summary',
      'tags',
      'authorName',
      'authorId',
      'authorPhoto',
      'createdAt',
      'upVote',
      'downVote',
      'commentCount',
      'revisionCount',
      'description',
    ]);
    // byte for byte: the visitor's body, then the reader's own fields in the order they always came
    expect(await text(path, voter.token, position)).toBe(json({ ...visitor, myVote: 'up', byMe: false, reportedByMe: false }));
    expect(await text(path, author.token, position)).toBe(json({ ...visitor, authorEmail: author.email, myVote: 'none', byMe: true, reportedByMe: false }));
    expect(await text(path, admin.token, position)).toBe(json({ ...visitor, authorEmail: author.email, myVote: 'none', byMe: false, reportedByMe: false }));
  });

  it('reads the shared post once for all readers at a version: a row changed behind its back is not seen by anyone until the version moves', async () => {
    const author = await registeredUser('Kim Kept');
    const voter = await registeredUser('Vic Voter');
    const { id } = await createPost(author.token, { title: 'Kept title' });
    const { position } = await expectStatus<{ position: string }>(setVote(id, voter.token, 'down'));
    // a member's read keeps the post for everyone
    expect(await getPost(id, voter.token, position)).toMatchObject({ title: 'Kept title', downVote: 1, myVote: 'down' });
    await changeBehind('posts', 'title', 'Changed behind', id);
    // a visitor's first read of it (nothing of theirs kept), the author's and an admin's: the kept row
    expect(await getPost(id)).toMatchObject({ title: 'Kept title', downVote: 1 });
    expect(await getPost(id, author.token)).toMatchObject({ title: 'Kept title', authorEmail: author.email, myVote: 'none', byMe: true });
    expect(await getPost(id, admin.token)).toMatchObject({ title: 'Kept title', authorEmail: author.email, byMe: false });
    expect(await getPost(id, voter.token)).toMatchObject({ title: 'Kept title', myVote: 'down' });
    // any change to the read side moves the version: the row is read again
    const moved = await createPost(author.token, { title: 'Moves the version' });
    expect(await getPost(id, voter.token, moved.position)).toMatchObject({ title: 'Changed behind', myVote: 'down' });
    expect(await getPost(id, undefined, moved.position)).toMatchObject({ title: 'Changed behind' });
  });

  it("shows a member's new vote at its position, never the one kept before", async () => {
    const author = await registeredUser('Otto Owner');
    const voter = await registeredUser('Mia Mind');
    const { id } = await createPost(author.token, { title: 'Changing minds' });
    const up = await expectStatus<{ position: string }>(setVote(id, voter.token, 'up'));
    expect(await getPost(id, voter.token, up.position)).toMatchObject({ upVote: 1, downVote: 0, myVote: 'up' });
    expect(await getPost(id, voter.token)).toMatchObject({ myVote: 'up' });
    const down = await expectStatus<{ position: string }>(setVote(id, voter.token, 'down'));
    expect(await getPost(id, voter.token, down.position)).toMatchObject({ upVote: 0, downVote: 1, myVote: 'down' });
    const none = await expectStatus<{ position: string }>(setVote(id, voter.token, 'none'));
    expect(await getPost(id, voter.token, none.position)).toMatchObject({ upVote: 0, downVote: 0, myVote: 'none' });
  });

  it('gives everyone the same comments, each with their own fields, on both comment lists; a kept page serves members and visitors alike', async () => {
    const author = await registeredUser('Pat Poster');
    const commenter = await registeredUser('Cam Commenter');
    const reporter = await registeredUser('Rae Reporter');
    const { id: postId } = await createPost(author.token, { title: 'Talked about' });
    const first = await createComment(commenter.token, postId, 'First words');
    await createComment(author.token, postId, 'Second words');
    const { position } = await expectStatus<{ position: string }>(
      forum.api(`/api/comments/${first.id}/report`, { method: 'POST', token: reporter.token, json: { feedback: 'spam' } }),
      201,
    );
    const list = `/api/comments/${postId}`;
    const paged = `/api/posts/${postId}/comments`;
    const visitorList = JSON.parse(await text(list, undefined, position)) as CommentItem[];
    const visitorPage = JSON.parse(await text(paged, undefined, position)) as CommentsPage;
    expect(visitorList.map((c) => Object.keys(c))).toEqual(
      Array.from({ length: 2 }, () => ['_id', 'postId', 'text', 'authorName', 'authorId', 'authorPhoto', 'createdAt', 'revisionCount']),
    );
    expect(visitorPage.comments).toEqual(visitorList);
    /** A visitor's comment with the reader's own fields, in the order they always came (the email after the name). */
    const seen = (c: CommentItem, own: { email?: string; byMe: boolean; reportedByMe: boolean }) => {
      const { _id, postId: onPost, text: words, authorName, authorId, authorPhoto, createdAt, revisionCount } = c;
      return {
        _id,
        postId: onPost,
        text: words,
        authorName,
        authorId,
        ...(own.email ? { authorEmail: own.email } : {}),
        authorPhoto,
        createdAt,
        revisionCount,
        byMe: own.byMe,
        reportedByMe: own.reportedByMe,
      };
    };
    const [one, two] = visitorList as [CommentItem, CommentItem];
    const asReporter = [seen(one, { byMe: false, reportedByMe: true }), seen(two, { byMe: false, reportedByMe: false })];
    const asCommenter = [seen(one, { email: commenter.email, byMe: true, reportedByMe: false }), seen(two, { byMe: false, reportedByMe: false })];
    const asAdmin = [
      seen(one, { email: commenter.email, byMe: false, reportedByMe: false }),
      seen(two, { email: author.email, byMe: false, reportedByMe: false }),
    ];
    for (const [token, expected] of [
      [reporter.token, asReporter],
      [commenter.token, asCommenter],
      [admin.token, asAdmin],
    ] as const) {
      expect(await text(list, token, position)).toBe(json(expected));
      expect(await text(paged, token, position)).toBe(json({ comments: expected, nextCursor: null, totalCount: 2 }));
    }
    // the kept page answers every reader until the version moves
    await changeBehind('comments', 'text', 'Changed behind', first.id);
    expect((await expectStatus<CommentItem[]>(forum.api(list, { token: reporter.token })))[0]).toMatchObject({ text: 'First words', reportedByMe: true });
    // a visitor's URL not read before (nothing of theirs kept) for the same page: the kept page
    expect((await expectStatus<CommentsPage>(forum.api(`${paged}?order=oldest`))).comments[0]).toMatchObject({ text: 'First words' });
    const moved = await createPost(author.token, { title: 'Moves the version' });
    expect((await expectStatus<CommentItem[]>(forum.api(list, { token: reporter.token, headers: minPositionHeaders(moved.position) })))[0]).toMatchObject({
      text: 'Changed behind',
      reportedByMe: true,
    });
  });
});
