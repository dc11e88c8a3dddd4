import { COMMENT_MAX, EDIT_GRACE_SECONDS, type CommentEvent } from '@forum/contracts';
import { FIXED_NOW, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import type { PostState } from '../post/post.ts';
import { livePost, stateAfter, testCommandMeta } from '../testing.ts';
import { evolve, initialCommentState, type CommentState } from './comment.ts';
import { decide, type EditComment } from './decide.ts';

const commentId = uuidOf(20);
const postId = uuidOf(10);
const created = Date.parse(FIXED_NOW);
/** A command's metadata `seconds` after the comment was added. */
const after = (seconds: number) => testCommandMeta({ now: new Date(created + seconds * 1000) });
const bob = { id: 'u-bob', isStaff: false };
const carl = { id: 'u-carl', isStaff: false };
const ada = { id: 'u-ada', isStaff: true };
const live: PostState = livePost('u-alice');

const given = stateAfter(evolve, initialCommentState);
const commentAdded: CommentEvent = {
  type: 'CommentAdded',
  data: { commentId, postId, text: 'Nice psot', authorId: 'u-bob', authorName: 'Bob', authorEmail: 'bob@forum.local', authorPhoto: '', createdAt: FIXED_NOW },
};
const edit = (editor: EditComment['data']['editor'], text: string, more: { reason?: string; post?: PostState } = {}): EditComment => ({
  type: 'EditComment',
  data: { commentId, editor, text, post: live, ...more },
});

describe('given a comment its author added', () => {
  const comment = given([commentAdded]);

  it('when the author fixes it within the grace period, then CommentEdited with the trimmed text, folded into revision 1', () => {
    expect(decide(edit(bob, '  Nice post  '), comment, after(30))).toEqual([
      {
        type: 'CommentEdited',
        data: {
          commentId,
          postId,
          authorId: 'u-bob',
          editorId: 'u-bob',
          text: 'Nice post',
          revision: 1,
          editedAt: new Date(created + 30_000).toISOString(),
        },
      },
    ]);
  });

  it(`when the author edits it more than ${EDIT_GRACE_SECONDS} s later, then revision 2, with their reason if they give one`, () => {
    expect(decide(edit(bob, 'Nice post', { reason: 'Typo' }), comment, after(EDIT_GRACE_SECONDS + 1))).toMatchObject([
      { data: { revision: 2, reason: 'Typo' } },
    ]);
  });

  it('when the text is the same after trimming, then no event', () => {
    expect(decide(edit(bob, ' Nice psot \n'), comment, after(30))).toEqual([]);
  });

  it(`when the text breaks the comment's rule (empty, over ${COMMENT_MAX} characters), then 400 on text`, () => {
    expect(() => decide(edit(bob, ' \n '), comment, after(30))).toThrowError(
      expect.objectContaining({ kind: 'invalid', details: { text: ['Comment must not be empty'] } }),
    );
    expect(() => decide(edit(bob, 'x'.repeat(COMMENT_MAX + 1)), comment, after(30))).toThrowError(expect.objectContaining({ kind: 'invalid' }));
  });

  it('when another member edits it, then 403 FORBIDDEN', () => {
    expect(() => decide(edit(carl, 'Mine', { reason: 'Why not' }), comment, after(30))).toThrowError(expect.objectContaining({ kind: 'forbidden' }));
  });

  it('when staff edit it, then a reason is required, and with one it makes revision 2 within the grace period too', () => {
    expect(() => decide(edit(ada, 'Be kind'), comment, after(30))).toThrowError(expect.objectContaining({ kind: 'rule', code: 'EDIT_REASON_REQUIRED' }));
    expect(decide(edit(ada, 'Be kind', { reason: 'Rude words' }), comment, after(30))).toMatchObject([
      { type: 'CommentEdited', data: { authorId: 'u-bob', editorId: 'u-ada', text: 'Be kind', reason: 'Rude words', revision: 2 } },
    ]);
  });

  it("when the author edits after staff's revision, then a revision of their own", () => {
    const staffs = decide(edit(ada, 'Be kind', { reason: 'Rude words' }), comment, after(30));
    expect(decide(edit(bob, 'Be kind, please'), given([commentAdded, ...staffs]), after(60))).toMatchObject([{ data: { revision: 3 } }]);
  });

  it.each<[string, PostState]>([
    ['deleted', { status: 'deleted', authorId: 'u-alice' }],
    ['unknown', { status: 'none' }],
  ])('when its post is %s, then 404 NOT_FOUND', (_, post) => {
    expect(() => decide(edit(bob, 'Nice post', { post }), comment, after(30))).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});

describe.each<[string, CommentState]>([
  ['no comment', initialCommentState],
  [
    'a removed comment',
    given([commentAdded, { type: 'CommentRemoved', data: { commentId, postId, authorId: 'u-bob', removedBy: 'u-ada', removedAt: FIXED_NOW } }]),
  ],
])('given %s', (_, comment) => {
  it('when its author or staff edit it, then 404 NOT_FOUND', () => {
    expect(() => decide(edit(bob, 'Nice post'), comment, after(30))).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(() => decide(edit(ada, 'Nice post', { reason: 'Why' }), comment, after(30))).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});
