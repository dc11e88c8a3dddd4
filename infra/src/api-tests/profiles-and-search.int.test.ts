import { PAGE_SIZE, RECENT_POSTS, type PostListItem, type PostsPage, type UserProfile } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

let forum: TestForum;
let admin: string;

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '20' });
  admin = await forum.tokenFor('admin@forum.local');
});
afterAll(() => forum?.stop());

const { errorOf, setVote, addComment, comments, deletePost } = calls(() => forum);

const { registeredUser, createPost } = given(() => forum);

describe('profile: GET /api/user-profile/:email', () => {
  it('answers the user, three statistics and the 3 newest live posts; the email only for the user themself and admins', async () => {
    const user = await registeredUser('Uma');
    const fan = await registeredUser('Fan');
    const critic = await registeredUser('Critic');
    const posts = [];
    for (let i = 0; i < 4; i++) posts.push(await createPost(user.token, { title: `Uma ${i}` }));
    await expectStatus(setVote(posts[3]!.id, fan.token, 'up'));
    await expectStatus(setVote(posts[2]!.id, fan.token, 'up'));
    await expectStatus(setVote(posts[2]!.id, critic.token, 'down'));
    await expectStatus(addComment(user.token, posts[0]!.id, 'Mine'), 201);
    await expectStatus(addComment(fan.token, posts[3]!.id, 'Great'), 201);
    const { position } = await expectStatus<{ position: string }>(addComment(user.token, posts[3]!.id, 'Thanks'), 201);

    const visitor = await expectStatus<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { headers: minPositionHeaders(position) }));
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
    expect((await expectStatus<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { token: fan.token }))).user).not.toHaveProperty('email');
    expect((await expectStatus<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { token: user.token }))).user.email).toBe(user.email);
    expect((await expectStatus<UserProfile>(forum.api(`/api/user-profile/${user.email.toUpperCase()}`, { token: admin }))).user.email).toBe(user.email);

    // a deleted post leaves the statistics: its post, its up-vote and its comments
    const deleted = await deletePost(posts[3]!.id, user.token);
    const after = await expectStatus<UserProfile>(forum.api(`/api/user-profile/${user.email}`, { headers: minPositionHeaders(deleted.position) }));
    expect(after.stats).toEqual({ posts: 3, comments: 1, commentsReceived: 1, upVotes: 1 });
    expect(after.recentPosts.map((p) => p._id)).toEqual([posts[2]!.id, posts[1]!.id, posts[0]!.id]);
  });

  it('shows the Gold badge of a member', async () => {
    const member = await registeredUser('Goldie');
    const { position } = await expectStatus<{ position: string }>(forum.api(`/api/users/membership/${member.email}`, { method: 'PATCH', token: member.token }));
    const profile = await expectStatus<UserProfile>(forum.api(`/api/user-profile/${member.email}`, { headers: minPositionHeaders(position) }));
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

    const page1 = await expectStatus<PostsPage>(forum.api('/api/posts/search?tag=career&page=1'));
    expect(page1.totalCount).toBe(total);
    expect(page1.posts).toHaveLength(PAGE_SIZE);
    const page2 = await expectStatus<PostsPage>(forum.api('/api/posts/search?tag=career&page=2'));
    expect(page2.posts.map((p) => p._id)).toEqual(all.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((p) => p._id));
    expect(await expectStatus(forum.api('/api/posts/search?tag=no-such-tag'))).toEqual([]);

    // a deleted post leaves the results and the count
    const deleted = await deletePost(created[6]!.id, authors[0]!.token);
    const afterDelete = await expectStatus<PostsPage>(forum.api('/api/posts/search?tag=career&page=1', { headers: minPositionHeaders(deleted.position) }));
    expect(afterDelete.totalCount).toBe(total - 1);
    expect(afterDelete.posts.map((p) => p._id)).not.toContain(created[6]!.id);
  });

  it('?q= is ranked full-text search over title and description (web-search syntax), paged', async () => {
    const user = await registeredUser('Searcher');
    const inTitle = await createPost(user.token, { title: 'Zanzibar travel notes', description: 'Islands and spices' });
    const inText = await createPost(user.token, { title: 'Holiday', description: 'We flew to Zanzibar last spring and loved it' });
    const { position } = await createPost(user.token, { title: 'Zanzibar ferries', description: 'Boats between islands' });

    const hits = await expectStatus<PostsPage>(forum.api('/api/posts/search?q=zanzibar', { headers: minPositionHeaders(position) }));
    expect(hits.totalCount).toBe(3);
    expect(hits.posts.at(-1)!._id).toBe(inText.id); // a title match ranks above a description match
    const phrase = await expectStatus<PostsPage>(forum.api(`/api/posts/search?q=${encodeURIComponent('zanzibar -ferries islands')}`));
    expect(phrase.posts.map((p) => p._id)).toEqual([inTitle.id]);
    // English stemming: "spice" finds "spices"
    expect((await expectStatus<PostsPage>(forum.api('/api/posts/search?q=spice'))).posts.map((p) => p._id)).toEqual([inTitle.id]);
    expect(await expectStatus(forum.api('/api/posts/search?q=qwertyuiopasdf'))).toEqual({ posts: [], totalCount: 0, totalCountCapped: false });
    expect(await expectStatus(forum.api('/api/posts/search?q=zanzibar&page=2'))).toEqual({ posts: [], totalCount: 3, totalCountCapped: false });
    // combined with a tag
    expect(await expectStatus(forum.api('/api/posts/search?q=zanzibar&tag=react'))).toEqual({ posts: [], totalCount: 0, totalCountCapped: false });
  });

  it('answers 400 without tag or q, with an empty one, or with a bad page', async () => {
    for (const query of ['', '?q=', '?q=%20%20', '?tag=', '?tag=react&page=0', '?q=x&page=abc']) {
      expect((await errorOf(forum.api(`/api/posts/search${query}`), 400)).code, query).toBe('VALIDATION_FAILED');
    }
  });
});
