import { randomUUID } from 'node:crypto';
import {
  PAGE_SIZE,
  positionToken,
  postStream,
  RECENT_POSTS,
  SEARCH_SNIPPET_MAX,
  type PostListItem,
  type PostsPage,
  type SearchPage,
  type UserProfile,
} from '@forum/contracts';
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

const { errorOf, setVote, addComment, deletePost } = calls(() => forum);

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

  it('?q= gives each post its snippet: the title whole and the description around the words found, those words marked, as plain text', async () => {
    const user = await registeredUser('Snippets');
    const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
    const inText = await createPost(user.token, {
      title: 'Highland wildlife',
      tags: ['Career'],
      description: `${words(60, 'before')}\n\nwe saw two   ocelots near <div> & "camp" ${words(300, 'after')}`,
    });
    const { id: inTitle, position } = await createPost(user.token, {
      title: 'Ocelot or margay?',
      description: 'Spotted cats of the forest, told apart by their tails.',
    });

    const { posts } = await expectStatus<SearchPage>(forum.api('/api/posts/search?q=ocelot', { headers: minPositionHeaders(position) }));
    expect(posts.map((p) => p._id)).toEqual([inTitle, inText.id]);
    const [titleMatch, textMatch] = posts;
    expect(titleMatch!.snippet).toEqual({
      title: [
        { text: 'Ocelot', marked: true },
        { text: ' or margay?', marked: false },
      ],
      // only the title matched: the description's first words, nothing marked
      description: [{ text: 'Spotted cats of the forest, told apart by their tails.', marked: false }],
    });
    expect(textMatch!.snippet.title).toEqual([{ text: 'Highland wildlife', marked: false }]);
    const { description } = textMatch!.snippet;
    expect(description.filter((run) => run.marked)).toEqual([{ text: 'ocelots', marked: true }]);
    const shown = description.map((run) => run.text).join('');
    // around the words found, white space as single spaces, the text as written (a tag-like "<div>" too)
    expect(shown).toContain('we saw two ocelots near <div> & "camp" after0');
    expect(shown).not.toContain('before0 ');
    expect(Array.from(shown).length).toBeLessThanOrEqual(SEARCH_SNIPPET_MAX);
    // the spec's search by tag and the tag pages answer as they did: no snippets
    const tagged = await expectStatus<PostListItem[]>(forum.api('/api/posts/search?tag=Career'));
    expect(tagged.map((post) => post._id)).toContain(inText.id);
    expect(tagged.some((post) => 'snippet' in post)).toBe(false);
    expect((await expectStatus<PostsPage>(forum.api('/api/posts/search?tag=Career&page=1'))).posts[0]).not.toHaveProperty('snippet');
  });

  it("a description in Markdown shows as plain text without markup characters: in its card's summary and in its search snippet", async () => {
    const user = await registeredUser('Marker');
    const { id, position } = await createPost(user.token, {
      title: 'Birding notes',
      description: '# Herons\n\nWe watched **three herons** near [the lake](https://example.com/lake) with `binoculars`.\n\n- one _grey_\n- one ~~blue~~ white',
    });
    const { posts } = await expectStatus<SearchPage>(forum.api('/api/posts/search?q=herons', { headers: minPositionHeaders(position) }));
    expect(posts.map((p) => p._id)).toEqual([id]);
    const shown = posts[0]!.snippet.description.map((run) => run.text).join('');
    expect(shown).toBe('Herons We watched three herons near the lake with binoculars. one grey one blue white');
    expect(posts[0]!.snippet.description.filter((run) => run.marked).map((run) => run.text)).toEqual(['Herons', 'herons']);
    expect(posts[0]!.summary).toBe('Herons We watched three herons near the lake with binoculars. one grey one blue...');
  });

  it('?q= marks only what ts_headline found: delimiters in a stored post (written before the text policy) are dropped, never taken as marks', async () => {
    const user = await registeredUser('Forger');
    const postId = randomUUID();
    const data = {
      postId,
      title: 'Forged \u0001marks\u0002 here',
      description: 'A \u0001forged\u0002 mark, a private \uE000 character, a <b>bold</b> claim and a tapir.',
      tags: [],
      authorId: user.id,
      authorName: user.name,
      authorEmail: user.email,
      authorPhoto: '',
      createdAt: new Date().toISOString(),
    };
    const metadata = { actorId: user.id, correlationId: 'snippet-test', causationId: null, requestId: null, schemaVersion: 1 };
    const { lastPosition } = await forum.store.append([
      { streamId: postStream(postId), expectedVersion: 'no_stream', events: [{ type: 'PostCreated', data, metadata }] },
    ]);

    const { posts } = await expectStatus<SearchPage>(forum.api('/api/posts/search?q=tapir', { headers: minPositionHeaders(positionToken(lastPosition)) }));
    expect(posts.map((p) => p.snippet)).toEqual([
      {
        title: [{ text: 'Forged marks here', marked: false }],
        description: [
          { text: 'A forged mark, a private character, a <b>bold</b> claim and a ', marked: false },
          { text: 'tapir', marked: true },
          { text: '.', marked: false },
        ],
      },
    ]);
    // words that look like the marks' stand-ins or like markup find nothing odd
    for (const q of ['\uE000', '<b>', 'a \uE000 tapir', '"<" tapir', 'tapir -<b>']) {
      const answer = await expectStatus<SearchPage>(forum.api(`/api/posts/search?q=${encodeURIComponent(q)}`));
      for (const post of answer.posts) expect(post.snippet.description.map((run) => run.text).join(''), q).not.toMatch(/[\p{Cc}\uE000]/u);
    }
  });

  it('?q= answers hostile words with 200 or 400, never a 500, and snippets of plain text', async () => {
    const user = await registeredUser('Hostile');
    const { position } = await createPost(user.token, { title: 'Or not', description: 'A "quoted" word - and a dash, or not; <b>bold</b> \uE000 & more.' });
    const words = [
      '\u0000',
      'a\u0000b',
      'x'.repeat(201),
      'é'.repeat(1000),
      '!!! ??? ...',
      '"',
      '""',
      '-',
      '--',
      'or',
      'or or',
      '"or"',
      '-or',
      '& | ! :*',
      "'",
      '\\',
      '<b>',
      '\uE000',
      '\u0001',
    ];
    // and lone surrogates, as the bytes a client would send for them
    const hostile = [...words.map(encodeURIComponent), '%ED%A0%80', 'x%ED%BF%BFy', '%00'];
    for (const q of hostile) {
      const response = await forum.api(`/api/posts/search?q=${q}`, { headers: minPositionHeaders(position) });
      expect([200, 400], q.slice(0, 40)).toContain(response.status);
      if (response.status === 200) {
        const { posts } = (await response.json()) as SearchPage;
        for (const post of posts)
          expect([...post.snippet.title, ...post.snippet.description].map((run) => run.text).join(''), q.slice(0, 40)).not.toMatch(/[\p{Cc}\uE000]/u);
      }
    }
  });

  it('answers 400 without tag or q, with an empty one, or with a bad page', async () => {
    for (const query of ['', '?q=', '?q=%20%20', '?tag=', '?tag=react&page=0', '?q=x&page=abc']) {
      expect((await errorOf(forum.api(`/api/posts/search${query}`), 400)).code, query).toBe('VALIDATION_FAILED');
    }
  });
});
