import type { Role } from '@forum/contracts';
import { FIXED_NOW as at, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { evolve as evolveComment, type CommentState } from '../comment/comment.ts';
import type { PostState } from '../post/post.ts';
import { evolve as evolvePost } from '../post/post.ts';
import { addedComment, livePost, testCommandMeta } from '../testing.ts';
import { decideCommentModeration, decidePostModeration, type CommentModeration, type PostModeration } from './content.ts';

const meta = testCommandMeta({ actorId: 'u-ada' });
const postId = uuidOf(1);
const commentId = uuidOf(2);
const ada = { id: 'u-ada', role: 'admin' as Role };
const mo = { id: 'u-mo', role: 'moderator' as Role };
const post = livePost('u-bob');
const comment = addedComment(postId, 'u-bob', 'Buy my stuff');
const onPost = (command: PostModeration, state: PostState = post) => decidePostModeration(command, state, meta);
const onComment = (command: CommentModeration, state: CommentState = comment) => decideCommentModeration(command, state, meta);
const staffProtected: unknown = expect.objectContaining({ kind: 'forbidden', code: 'STAFF_PROTECTED' });
const notFound: unknown = expect.objectContaining({ kind: 'not-found' });

describe('hiding a post (#43.3)', () => {
  const hide = (more: Partial<Extract<PostModeration, { type: 'HidePost' }>['data']> = {}): PostModeration => ({
    type: 'HidePost',
    data: { postId, reason: 'Off topic', actor: ada, authorRole: 'user', ...more },
  });
  const unhide = (actor = ada, authorRole: Role = 'user'): PostModeration => ({ type: 'UnhidePost', data: { postId, actor, authorRole } });
  it('when HidePost, then PostHidden with the reason, the author and who hid it; the post is hidden', () => {
    const events = onPost(hide());
    expect(events).toEqual([{ type: 'PostHidden', data: { postId, authorId: 'u-bob', reason: 'Off topic', hiddenBy: 'u-ada', hiddenAt: at } }]);
    expect(events.reduce(evolvePost, post)).toMatchObject({ hidden: { reason: 'Off topic' } });
  });
  it('given it hidden: the same reason again appends nothing, a new reason hides it again; UnhidePost shows it', () => {
    const hidden = onPost(hide()).reduce(evolvePost, post);
    expect(onPost(hide(), hidden)).toEqual([]);
    expect(onPost(hide({ reason: 'Spam' }), hidden)).toMatchObject([{ type: 'PostHidden', data: { reason: 'Spam' } }]);
    const shown = onPost(unhide(), hidden);
    expect(shown).toEqual([{ type: 'PostUnhidden', data: { postId, authorId: 'u-bob', unhiddenBy: 'u-ada', unhiddenAt: at } }]);
    expect(shown.reduce(evolvePost, hidden)).toMatchObject({ hidden: null });
  });
  it('given it visible, when UnhidePost, then nothing', () => {
    expect(onPost(unhide())).toEqual([]);
  });
  it.each<Role>(['moderator', 'admin'])("a moderator may not hide or unhide a %s's post (403 STAFF_PROTECTED), an admin may", (authorRole) => {
    expect(() => onPost(hide({ actor: mo, authorRole }))).toThrowError(staffProtected);
    expect(() => onPost(unhide(mo, authorRole), { ...post, hidden: { reason: 'x' } })).toThrowError(staffProtected);
    expect(onPost(hide({ authorRole }))).toHaveLength(1);
  });
  it('a moderator hides their own post', () => {
    expect(onPost(hide({ actor: mo, authorRole: 'moderator' }), livePost('u-mo'))).toHaveLength(1);
  });
  it.each<[string, PostState]>([
    ['unknown', { status: 'none' }],
    ['deleted', { status: 'deleted', authorId: 'u-bob' }],
  ])('given an %s post, every action is 404', (_, state) => {
    for (const command of [
      hide(),
      unhide(),
      { type: 'LockPost', data: { postId, actor: ada } },
      { type: 'DismissPostReports', data: { postId, actor: ada } },
    ] as PostModeration[])
      expect(() => onPost(command, state)).toThrowError(notFound);
  });
});

describe('locking a post (#43.4)', () => {
  it('when LockPost (with or without a reason), then PostLocked; locked again: nothing; UnlockPost: PostUnlocked, then nothing', () => {
    expect(onPost({ type: 'LockPost', data: { postId, actor: mo } })).toEqual([{ type: 'PostLocked', data: { postId, lockedBy: 'u-mo', lockedAt: at } }]);
    const events = onPost({ type: 'LockPost', data: { postId, reason: 'Settled', actor: ada } });
    expect(events).toEqual([{ type: 'PostLocked', data: { postId, reason: 'Settled', lockedBy: 'u-ada', lockedAt: at } }]);
    const locked = events.reduce(evolvePost, post);
    expect(locked).toMatchObject({ locked: true });
    expect(onPost({ type: 'LockPost', data: { postId, actor: ada } }, locked)).toEqual([]);
    const unlocked = onPost({ type: 'UnlockPost', data: { postId, actor: ada } }, locked);
    expect(unlocked).toEqual([{ type: 'PostUnlocked', data: { postId, unlockedBy: 'u-ada', unlockedAt: at } }]);
    expect(onPost({ type: 'UnlockPost', data: { postId, actor: ada } }, unlocked.reduce(evolvePost, locked))).toEqual([]);
  });
});

describe('dismissing reports (#43.2)', () => {
  it("when DismissPostReports, then ReportsDismissed naming the post; on a comment, naming it and its post; the item's state is unchanged", () => {
    const onPostEvents = onPost({ type: 'DismissPostReports', data: { postId, actor: mo } });
    expect(onPostEvents).toEqual([{ type: 'ReportsDismissed', data: { item: { kind: 'post', id: postId, postId }, dismissedBy: 'u-mo', dismissedAt: at } }]);
    expect(onPostEvents.reduce(evolvePost, post)).toEqual(post);
    const onCommentEvents = onComment({ type: 'DismissCommentReports', data: { commentId, actor: mo, post } });
    expect(onCommentEvents).toEqual([
      { type: 'ReportsDismissed', data: { item: { kind: 'comment', id: commentId, postId }, dismissedBy: 'u-mo', dismissedAt: at } },
    ]);
    expect(onCommentEvents.reduce(evolveComment, comment)).toEqual(comment);
  });
});

describe('hiding a comment (#43.3)', () => {
  const hide = (actor = ada, authorRole: Role = 'user', reason = 'Rude'): CommentModeration => ({
    type: 'HideComment',
    data: { commentId, reason, actor, authorRole, post },
  });
  it('when HideComment, then CommentHidden naming its post and author; again with the reason: nothing; UnhideComment: CommentUnhidden', () => {
    const events = onComment(hide());
    expect(events).toEqual([{ type: 'CommentHidden', data: { commentId, postId, authorId: 'u-bob', reason: 'Rude', hiddenBy: 'u-ada', hiddenAt: at } }]);
    const hidden = events.reduce(evolveComment, comment);
    expect(hidden).toMatchObject({ hidden: { reason: 'Rude' } });
    expect(onComment(hide(), hidden)).toEqual([]);
    const unhide: CommentModeration = { type: 'UnhideComment', data: { commentId, actor: ada, authorRole: 'user', post } };
    expect(onComment(unhide, hidden)).toEqual([
      { type: 'CommentUnhidden', data: { commentId, postId, authorId: 'u-bob', unhiddenBy: 'u-ada', unhiddenAt: at } },
    ]);
    expect(onComment(unhide)).toEqual([]);
  });
  it("a moderator may not hide a moderator's or an admin's comment (403 STAFF_PROTECTED)", () => {
    expect(() => onComment(hide(mo, 'admin'))).toThrowError(staffProtected);
    expect(() => onComment(hide(mo, 'moderator'))).toThrowError(staffProtected);
    expect(onComment(hide(mo, 'user'))).toHaveLength(1);
  });
  it('a removed comment, an unknown one, or one of a deleted post is 404', () => {
    expect(() => onComment(hide(), { ...comment, status: 'removed' })).toThrowError(notFound);
    expect(() => onComment(hide(), { status: 'none' })).toThrowError(notFound);
    expect(() =>
      onComment({ type: 'HideComment', data: { commentId, reason: 'x', actor: ada, authorRole: 'user', post: { status: 'deleted', authorId: 'u-bob' } } }),
    ).toThrowError(notFound);
  });
});
