import {
  compareLogPositions,
  LEADERBOARD_SIZE,
  PAGE_SIZE,
  parsePositionToken,
  positionToken,
  type PostListItem,
  type PostsPage,
  type TopVotedUser,
} from '@forum/contracts';
import { anyString, objectContaining } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '20' });
});
afterAll(() => forum?.stop());

const { eventCount, streamTypes, errorOf, getPost, setVote, changeVote, deletePost } = calls(() => forum);

const { registeredUser, createPost } = given(() => forum);
const topVoted = (position?: string) => expectStatus<TopVotedUser[]>(forum.api('/api/users/top-voted', { headers: minPositionHeaders(position) }));

describe('votes: PUT /api/posts/:id/vote', () => {
  it('sets the caller’s vote; the post’s counts and the caller’s myVote follow; the same vote again appends nothing', async () => {
    const author = await registeredUser('Vera');
    const voter = await registeredUser('Walt');
    const { id } = await createPost(author.token);

    const up = await expectStatus<{ id: string; position: string; vote: string }>(setVote(id, voter.token, 'up'));
    expect(up).toEqual({ id, position: anyString, vote: 'up' });
    expect(await getPost(id, voter.token, up.position)).toMatchObject({ upVote: 1, downVote: 0, myVote: 'up' });
    expect(await getPost(id, author.token)).toMatchObject({ upVote: 1, myVote: 'none' });
    expect(await getPost(id)).not.toHaveProperty('myVote');

    const events = await eventCount();
    const again = await forum.api(`/api/posts/${id}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'up' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('X-Event-Position')).toBeNull();
    expect(await again.json()).toEqual({ id, vote: 'up' });
    expect(await eventCount()).toBe(events);

    const down = await expectStatus<{ position: string }>(setVote(id, voter.token, 'down'));
    expect(await getPost(id, voter.token, down.position)).toMatchObject({ upVote: 0, downVote: 1, myVote: 'down' });
    const none = await expectStatus<{ position: string }>(setVote(id, voter.token, 'none'));
    expect(await getPost(id, voter.token, none.position)).toMatchObject({ upVote: 0, downVote: 0, myVote: 'none' });

    const { events: cast } = await forum.store.readStream(`vote-${id}-${voter.id}`);
    expect(cast.map((e) => e.data)).toEqual([
      objectContaining({ postId: id, userId: voter.id, previous: 'none', vote: 'up' }),
      objectContaining({ previous: 'up', vote: 'down' }),
      objectContaining({ previous: 'down', vote: 'none' }),
    ]);
    expect(cast[0]!.metadata.actorId).toBe(voter.id);
  });

  it('orders the home page by popularity (up − down, then newest)', async () => {
    const author = await registeredUser('Zora');
    const voters = await Promise.all([registeredUser('V1'), registeredUser('V2')]);
    const liked = await createPost(author.token, { title: 'Liked' });
    const disliked = await createPost(author.token, { title: 'Disliked' });
    await expectStatus(setVote(liked.id, voters[0].token, 'up'));
    await expectStatus(setVote(liked.id, voters[1].token, 'up'));
    const { position } = await expectStatus<{ position: string }>(setVote(disliked.id, voters[0].token, 'down'));
    const page = await expectStatus<PostsPage>(forum.api('/api/posts?sort=popularity', { headers: minPositionHeaders(position) }));
    expect(page.posts[0]).toMatchObject({ _id: liked.id, upVote: 2, downVote: 0 });
    const all: PostListItem[] = [];
    for (let p = 1; p <= Math.ceil(page.totalCount / PAGE_SIZE); p++)
      all.push(...(await expectStatus<PostsPage>(forum.api(`/api/posts?sort=popularity&page=${p}`))).posts);
    expect(all.at(-1)).toMatchObject({ _id: disliked.id, downVote: 1 });
  });

  it('stays exact with 100 users voting on one post at once (70 up, 30 down): all succeed', { timeout: 120_000 }, async () => {
    const author = await registeredUser('Popular Author');
    const { id } = await createPost(author.token, { title: 'Vote on me' });
    const voters: NewUser[] = [];
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
    expect(await expectStatus(changeVote(id, voter.token, 1, 0))).toMatchObject({ vote: 'up' }); // like
    expect(await expectStatus(changeVote(id, voter.token, -1, 0))).toMatchObject({ vote: 'none' }); // like again: undo
    expect(await expectStatus(changeVote(id, voter.token, 0, 1))).toMatchObject({ vote: 'down' }); // dislike
    const switched = await expectStatus<{ position: string; vote: string }>(changeVote(id, voter.token, 1, -1)); // like when disliked
    expect(switched.vote).toBe('up');
    expect(await getPost(id, voter.token, switched.position)).toMatchObject({ upVote: 1, downVote: 0, myVote: 'up' });

    const events = await eventCount();
    const illegal = await errorOf(changeVote(id, voter.token, 1, 0), 409);
    expect(illegal).toMatchObject({ code: 'ILLEGAL_VOTE_TRANSITION', details: { current: 'up' } });
    expect((await errorOf(changeVote(id, voter.token, 0, 0), 409)).code).toBe('ILLEGAL_VOTE_TRANSITION');
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
      await expectStatus(setVote(zedPost.id, voter.token, 'up'));
      await expectStatus(setVote(abePost.id, voter.token, 'up'));
    }
    await expectStatus(setVote(lowPost.id, voters[0].token, 'up'));
    const { position } = await expectStatus<{ position: string }>(setVote(lowPost.id, voters[1].token, 'down'));

    const board = await topVoted(position);
    expect(board.length).toBeLessThanOrEqual(LEADERBOARD_SIZE);
    const ids = board.map((u) => u._id);
    expect(ids.indexOf(abe.id)).toBeLessThan(ids.indexOf(zed.id));
    expect(ids.indexOf(zed.id)).toBeLessThan(ids.indexOf(low.id));
    expect(ids).not.toContain(none.id);
    expect(board.find((u) => u._id === abe.id)).toEqual({ _id: abe.id, name: 'Abe Tie', photoURL: '', totalVote: 3, hasProfile: true });
    expect(board.find((u) => u._id === low.id)).toMatchObject({ totalVote: 1 });
    for (const entry of board) expect(Object.keys(entry).sort()).toEqual(['_id', 'hasProfile', 'name', 'photoURL', 'totalVote']);
    const totals = board.map((u) => u.totalVote);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));

    // a deleted post's up-votes no longer count
    const deleted = await deletePost(lowPost.id, low.token);
    expect((await topVoted(deleted.position)).map((u) => u._id)).not.toContain(low.id);
  });
});
