import { ANONYMOUS_NAME, COMMENT_MAX, type Role } from '@forum/contracts';
import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import type { PostState } from '../post/post.ts';
import { testCommandMeta, livePost } from '../testing.ts';
import { evolve, initialCommentState } from './comment.ts';
import { decide, type AddComment, type RemoveComment } from './decide.ts';

const meta = testCommandMeta({ actorId: 'u-bob', requestId: 'r' });
const commentId = '22222222-2222-4222-8222-222222222222';
const postId = '11111111-1111-4111-8111-111111111111';
const live: PostState = livePost('u-alice');
const bob = { id: 'u-bob', name: 'Bob', email: 'bob@forum.local', photo: 'https://img/bob.png' };
const add = (overrides: Partial<AddComment['data']> = {}): AddComment => ({
  type: 'AddComment',
  data: { commentId, postId, text: '  Nice post!  ', author: bob, post: live, authorIsStaff: false, ...overrides },
});
const remove = (actorIsAdmin: boolean, authorRole: Role = 'user', actorRole?: Role): RemoveComment => ({
  type: 'RemoveComment',
  data: {
    commentId,
    actor: { id: actorRole === 'moderator' ? 'u-mod' : actorIsAdmin ? 'u-admin' : 'u-bob', role: actorRole ?? (actorIsAdmin ? 'admin' : 'user') },
    authorRole,
  },
});
const added = decide(add(), initialCommentState, meta);

describe('given no comment', () => {
  it('when AddComment on a live post, then CommentAdded with the trimmed text, the author and the clock', () => {
    expect(added).toEqual([
      {
        type: 'CommentAdded',
        data: {
          commentId,
          postId,
          text: 'Nice post!',
          authorId: 'u-bob',
          authorName: 'Bob',
          authorEmail: 'bob@forum.local',
          authorPhoto: 'https://img/bob.png',
          createdAt: at,
        },
      },
    ]);
  });
  it("when the author has no display name, then the comment is by 'Anonymous'", () => {
    expect(decide(add({ author: { ...bob, name: ' ' } }), initialCommentState, meta)).toMatchObject([{ data: { authorName: ANONYMOUS_NAME } }]);
  });
  it('when the text is empty after trimming, then 400 on text', () => {
    expect(() => decide(add({ text: ' \n\t ' }), initialCommentState, meta)).toThrowError(
      expect.objectContaining({ kind: 'invalid', details: { text: ['Comment must not be empty'] } }),
    );
  });
  it(`when the text is longer than ${COMMENT_MAX} characters, then 400; exactly ${COMMENT_MAX} passes`, () => {
    expect(() => decide(add({ text: 'x'.repeat(COMMENT_MAX + 1) }), initialCommentState, meta)).toThrowError(expect.objectContaining({ kind: 'invalid' }));
    expect(decide(add({ text: 'x'.repeat(COMMENT_MAX) }), initialCommentState, meta)).toHaveLength(1);
  });
  it(`counts characters as the web apps' counters do (code points): ${COMMENT_MAX} emoji pass, one more does not`, () => {
    expect(decide(add({ text: '\u{1f600}'.repeat(COMMENT_MAX) }), initialCommentState, meta)).toHaveLength(1);
    expect(() => decide(add({ text: '\u{1f600}'.repeat(COMMENT_MAX + 1) }), initialCommentState, meta)).toThrowError(
      expect.objectContaining({ kind: 'invalid' }),
    );
  });
  it.each<PostState>([{ status: 'none' }, { status: 'deleted', authorId: 'u-alice' }])('when the post is %j, then 404', (post) => {
    expect(() => decide(add({ post }), initialCommentState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('when an admin removes it, then 404', () => {
    expect(() => decide(remove(true), initialCommentState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('#43.4 when the post is hidden, then 404 for a member (its author too), and CommentAdded for staff', () => {
    const hidden = livePost('u-bob', { hidden: { reason: 'Off topic' } });
    expect(() => decide(add({ post: hidden }), initialCommentState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(decide(add({ post: hidden, authorIsStaff: true }), initialCommentState, meta)).toMatchObject([{ type: 'CommentAdded' }]);
  });
  it('#43.4 when the post is locked, then 409 POST_LOCKED for a member, and CommentAdded for staff', () => {
    const locked = livePost('u-alice', { locked: true });
    expect(() => decide(add({ post: locked }), initialCommentState, meta)).toThrowError(
      expect.objectContaining({ kind: 'conflict', code: 'POST_LOCKED', message: 'This post is locked: no new comments can be added.' }),
    );
    expect(decide(add({ post: locked, authorIsStaff: true }), initialCommentState, meta)).toMatchObject([{ type: 'CommentAdded' }]);
  });
});

describe('given an added comment', () => {
  const state = added.reduce(evolve, initialCommentState);
  it('when AddComment with the same id, then 409', () => {
    expect(() => decide(add(), state, meta)).toThrowError(expect.objectContaining({ kind: 'conflict' }));
  });
  it('when an admin removes it, then CommentRemoved naming the post, the author and the admin', () => {
    expect(decide(remove(true), state, meta)).toEqual([
      { type: 'CommentRemoved', data: { commentId, postId, authorId: 'u-bob', removedBy: 'u-admin', removedAt: at } },
    ]);
  });
  it('when a non-admin (even its author) removes it, then 403 FORBIDDEN', () => {
    expect(() => decide(remove(false), state, meta)).toThrowError(expect.objectContaining({ kind: 'forbidden', code: 'FORBIDDEN' }));
  });
  it("#43.1 when a moderator removes a member's comment, then CommentRemoved by the moderator", () => {
    expect(decide(remove(false, 'user', 'moderator'), state, meta)).toMatchObject([{ type: 'CommentRemoved', data: { removedBy: 'u-mod' } }]);
  });
  it.each<Role>(['moderator', 'admin'])("#43.1 when a moderator removes a %s's comment, then 403 STAFF_PROTECTED; an admin may", (authorRole) => {
    expect(() => decide(remove(false, authorRole, 'moderator'), state, meta)).toThrowError(expect.objectContaining({ code: 'STAFF_PROTECTED' }));
    expect(decide(remove(true, authorRole), state, meta)).toMatchObject([{ type: 'CommentRemoved' }]);
  });
});

describe('given a removed comment', () => {
  const state = [...added, ...decide(remove(true), added.reduce(evolve, initialCommentState), meta)].reduce(evolve, initialCommentState);
  it('when an admin removes it again, then 404', () => {
    expect(() => decide(remove(true), state, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('when a non-admin removes it, then 403 first (no hint whether it exists)', () => {
    expect(() => decide(remove(false), state, meta)).toThrowError(expect.objectContaining({ kind: 'forbidden' }));
  });
});
