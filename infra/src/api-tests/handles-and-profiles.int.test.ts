import { randomBytes } from 'node:crypto';
import {
  HANDLE_SUGGESTIONS_MAX,
  type AdminUsersPage,
  type CommentItem,
  type CommentsPage,
  type ErrorBody,
  type HandleSuggestions,
  type Me,
  type PostDetail,
  type PostListItem,
  type PostsPage,
  type PublicProfile,
  type SearchPage,
} from '@forum/contracts';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../testing/given.ts';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * Handles and public profiles through the whole forum (docs/notifications.md#handles): a handle given
 * at registration and changed in the profile, read back by GET /api/me, the admin's list, the @
 * autocomplete and GET /api/users/:id (by id or @handle).
 */
let forum: TestForum;
let admin: { id: string; token: string };
const { registeredUser, createPost, createComment } = given(() => forum);

beforeAll(async () => {
  forum = await startTestForum({ IDENTITY_REMOVAL_GRACE_MS: '0' });
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

/** A unique word, so that each test's handles start with a prefix of their own. */
const word = () => `h${randomBytes(3).toString('hex')}`;
const me = (token: string) => forum.call<Me>('GET', '/api/me', { token });
const setHandle = (token: string, handle: string, expect = 200) => forum.call('PATCH', '/api/me', { token, body: { handle }, expect });
const suggestions = (token: string, prefix: string) =>
  forum.call<HandleSuggestions>('GET', `/api/users/handles?prefix=${encodeURIComponent(prefix)}`, { token });

describe('a handle', () => {
  it('the demo accounts have theirs (admin is reserved: forum_admin), in the forum and in the realm’s tokens', async () => {
    for (const [email, handle] of [
      ['admin@forum.local', 'forum_admin'],
      ['alice@forum.local', 'alice'],
      ['bob@forum.local', 'bob'],
    ] as const) {
      const token = await forum.tokenFor(email);
      expect((await forum.register(token)).handle).toBe(handle);
      expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { handle?: string }).toMatchObject({ handle });
    }
  });

  it('is given at registration from the name, answered by GET /api/me and the admin’s list, and changed by PATCH /api/me', async () => {
    const w = word();
    const ann = await registeredUser(`${w} Ann`);
    expect((await me(ann.token)).handle).toBe(`${w}_Ann`);
    await setHandle(ann.token, `${w}.ann`);
    expect((await me(ann.token)).handle).toBe(`${w}.ann`);
    // the realm keeps a copy for its tokens, written after the forum recorded the change
    const account = () => forum.realm!.accounts.findByEmail(ann.email);
    await waitFor(account, (found) => found?.handle === `${w}.ann`);
    const claims = JSON.parse(Buffer.from((await forum.signIn(ann.email, ann.password)).split('.')[1]!, 'base64url').toString()) as { handle?: string };
    expect(claims.handle).toBe(`${w}.ann`);
    const listed = await forum.call<AdminUsersPage>('GET', `/api/admin/users?search=${encodeURIComponent(ann.email)}`, { token: admin.token });
    expect(listed.users.map((user) => user.handle)).toEqual([`${w}.ann`]);
  });

  it('is unique ignoring case: another member’s is 409 HANDLE_TAKEN; once released it is free', async () => {
    const w = word();
    const [ann, bob] = [await registeredUser('Ann'), await registeredUser('Bob')];
    await setHandle(ann.token, `${w}_x`);
    const refused = await forum.call<ErrorBody>('PATCH', '/api/me', { token: bob.token, body: { handle: `${w.toUpperCase()}_X` }, expect: 409 });
    expect(refused.error).toEqual({ code: 'HANDLE_TAKEN', message: 'That handle is taken: choose another' });
    await setHandle(ann.token, `${w}_y`);
    await setHandle(bob.token, `${w.toUpperCase()}_X`);
    expect((await me(bob.token)).handle).toBe(`${w.toUpperCase()}_X`);
  });
});

describe('GET /api/users/handles?prefix=', () => {
  it('answers members whose handle starts with the prefix ignoring case, the exact match first, at most HANDLE_SUGGESTIONS_MAX, no disabled nor erased member', async () => {
    const w = word();
    const asker = await registeredUser('Asker');
    const members = [];
    for (const suffix of ['_b', '', '_a', ...Array.from({ length: HANDLE_SUGGESTIONS_MAX }, (_, n) => `_z${n}`)]) {
      const member = await registeredUser(`Member ${suffix}`);
      await setHandle(member.token, `${w}${suffix}`);
      members.push(member);
    }
    const found = await suggestions(asker.token, w.toUpperCase());
    expect(found.users.map((user) => user.handle)).toEqual([
      w,
      `${w}_a`,
      `${w}_b`,
      ...Array.from({ length: HANDLE_SUGGESTIONS_MAX - 3 }, (_, n) => `${w}_z${n}`),
    ]);
    expect(found.users[0]).toEqual({ _id: members[1]!.id, handle: w, name: 'Member', photoURL: '' });
    // '_' is a character of the prefix, not a wildcard
    expect((await suggestions(asker.token, `${w}_`)).users.map((user) => user.handle)).toContain(`${w}_a`);
    expect((await suggestions(asker.token, `${w.slice(0, -1)}_`)).users).toEqual([]);

    // disabled (through the realm) and erased members are not offered
    expect((await forum.api(`/admin/realms/forum/users/${members[0]!.id}`, { method: 'PUT', token: admin.token, json: { enabled: false } })).status).toBe(204);
    await forum.call('DELETE', '/api/me', { token: members[2]!.token, body: { content: 'keep' } });
    const after = await suggestions(asker.token, w);
    expect(after.users.map((user) => user.handle)).toEqual([w, ...Array.from({ length: HANDLE_SUGGESTIONS_MAX - 1 }, (_, n) => `${w}_z${n}`)]);
  });

  it('is for signed-in members (401 for a visitor, before the prefix is checked); a prefix that is no handle is 400', async () => {
    const asker = await registeredUser('Asker');
    expect((await forum.api('/api/users/handles?prefix=a%20b')).status).toBe(401);
    const refused = await forum.call<ErrorBody>('GET', '/api/users/handles?prefix=a%20b', { token: asker.token, expect: 400 });
    expect(refused.error.code).toBe('VALIDATION_FAILED');
    await forum.call('GET', `/api/users/handles?prefix=${'a'.repeat(21)}`, { token: asker.token, expect: 400 });
  });
});

describe('GET /api/users/:id (a public profile)', () => {
  it('answers anyone by id or by @handle in any case: name, handle, photo, joined, badges, counts and a page of posts, no email', async () => {
    const w = word();
    const cat = await registeredUser('Cat Writer');
    await setHandle(cat.token, `${w}.Cat`);
    await forum.call('PATCH', `/api/users/membership/${cat.email}`, { token: cat.token });
    for (let n = 1; n <= 6; n++) await createPost(cat.token, { title: `Post ${n}` });
    const byId = await forum.call<PublicProfile>('GET', `/api/users/${cat.id}`);
    expect(byId.user).toEqual({
      _id: cat.id,
      name: 'Cat Writer',
      handle: `${w}.Cat`,
      photoURL: '',
      registeredAt: (await me(cat.token)).registeredAt,
      role: 'user',
      isMember: true,
      badge: 'Gold',
    });
    expect(JSON.stringify(byId)).not.toContain(cat.email);
    expect(byId.stats).toMatchObject({ posts: 6 });
    expect(byId.totalCount).toBe(6);
    expect(byId.posts.map((post) => post.title)).toEqual(['Post 6', 'Post 5', 'Post 4', 'Post 3', 'Post 2']);
    const byHandle = await forum.call<PublicProfile>('GET', `/api/users/${encodeURIComponent(`@${w.toUpperCase()}.cat`)}?page=2`);
    expect(byHandle.user._id).toBe(cat.id);
    expect(byHandle.posts.map((post) => post.title)).toEqual(['Post 1']);
    const asAdmin = await forum.call<PublicProfile>('GET', `/api/users/${cat.id}`, { token: admin.token });
    expect(asAdmin).toEqual(byId);
  });

  it('answers 404 for an unknown member, an unknown handle and an erased member; staff read as admin', async () => {
    expect((await forum.api('/api/users/no-such-member')).status).toBe(404);
    expect((await forum.api(`/api/users/${encodeURIComponent(`@${word()}`)}`)).status).toBe(404);
    const gone = await registeredUser('Gone Soon');
    await forum.call('GET', `/api/users/${gone.id}`);
    await forum.call('DELETE', '/api/me', { token: gone.token, body: { content: 'keep' } });
    expect((await forum.api(`/api/users/${gone.id}`)).status).toBe(404);
    const staff = await forum.call<PublicProfile>('GET', `/api/users/${admin.id}`);
    expect(staff.user.role).toBe('admin');
  });
});

describe('authorId: the author of a post or comment, for the link to their public profile', () => {
  it('is the author’s user id in the home page, a post, its comments (both reads), a tag’s posts, a search, a profile’s posts and the admin’s list', async () => {
    const w = word();
    const tag = `t${w}`;
    await forum.call('POST', '/api/admin/tags', { token: admin.token, body: { name: tag }, expect: 201 });
    const [dee, eve] = [await registeredUser('Dee Author'), await registeredUser('Eve Commenter')];
    const { id: postId } = await createPost(dee.token, { title: `Kestrels ${w}`, description: `Kestrels hover ${w}.`, tags: [tag] });
    await createComment(eve.token, postId, 'They do.');
    const byDee = (posts: readonly PostListItem[]) => posts.filter((post) => post._id === postId).map((post) => post.authorId);

    expect(byDee((await forum.call<PostsPage>('GET', '/api/posts?page=1')).posts)).toEqual([dee.id]);
    expect((await forum.call<PostDetail>('GET', `/api/posts/${postId}`)).authorId).toBe(dee.id);
    expect((await forum.call<CommentItem[]>('GET', `/api/comments/${postId}`)).map((c) => c.authorId)).toEqual([eve.id]);
    expect((await forum.call<CommentsPage>('GET', `/api/posts/${postId}/comments`)).comments.map((c) => c.authorId)).toEqual([eve.id]);
    expect(byDee(await forum.call<PostListItem[]>('GET', `/api/posts/search?tag=${tag}`))).toEqual([dee.id]);
    expect(byDee((await forum.call<PostsPage>('GET', `/api/posts/search?tag=${tag}&page=1`)).posts)).toEqual([dee.id]);
    expect(byDee((await forum.call<SearchPage>('GET', `/api/posts/search?q=${w}`)).posts)).toEqual([dee.id]);
    expect(byDee((await forum.call<PublicProfile>('GET', `/api/users/${dee.id}`)).posts)).toEqual([dee.id]);
    expect(
      byDee(
        await forum.call<PostListItem[]>('GET', `/api/posts?range=${encodeURIComponent('[0,9]')}&sort=${encodeURIComponent('["createdAt","DESC"]')}`, {
          token: admin.token,
        }),
      ),
    ).toEqual([dee.id]);
  });
});
