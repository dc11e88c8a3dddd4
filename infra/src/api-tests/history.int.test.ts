import { compareLogPositions, parsePositionToken, type History, type HistoryEntry, type HistoryKind } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { matching, objectContaining, waitFor } from '@forum/platform/testing';

/**
 * Histories of the console (docs/operations/history.md): a user's is what they did and what was
 * done about them, a post's is the post with its comments, votes and reports; in log order, paged.
 */
let forum: TestForum;
let admin: { id: string; token: string };
/** The member whose history is read, and another member doing the same kinds of things beside them. */
let member: NewUser;
let other: NewUser;
/** The member's own post, and the other member's post that the member comments on, likes and reports on. */
let ownPost: string;
let othersPost: string;
let othersComment: string;

const post = (who: NewUser, title: string) =>
  expectStatus<{ id: string }>(forum.api('/api/posts', { method: 'POST', token: who.token, json: { title, description: 'x', tags: [] } }), 201);
const comment = (who: NewUser, postId: string, text: string) =>
  expectStatus<{ id: string }>(forum.api('/api/comments', { method: 'POST', token: who.token, json: { postId, text } }), 201);
const like = (who: NewUser, postId: string) => expectStatus(forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: who.token, json: { vote: 'up' } }));
const report = (who: NewUser, commentId: string) =>
  expectStatus(forum.api(`/api/comments/${commentId}/report`, { method: 'POST', token: who.token, json: { feedback: 'spam' } }), 201);

/** One page of a history, as the console asks for it. */
const page = (kind: HistoryKind, id: string, query = '') =>
  expectStatus<History>(forum.api(`/api/admin/history/${kind}/${encodeURIComponent(id)}${query}`, { token: admin.token }));

/** The whole history, `limit` events a page, following `nextAfter`. */
async function allPages(kind: HistoryKind, id: string, limit: number): Promise<{ events: HistoryEntry[]; pages: number }> {
  const events: HistoryEntry[] = [];
  let pages = 0;
  for (let after: string | null = null; ;) {
    const answer = await page(kind, id, `?limit=${limit}${after ? `&after=${after}` : ''}`);
    pages++;
    expect(answer.events.length).toBeLessThanOrEqual(limit);
    events.push(...answer.events);
    if (answer.nextAfter === null) return { events, pages };
    after = answer.nextAfter;
  }
}

/** The history once it holds an event of `type` (the log shows an event once no older transaction is still running). */
const historyWith = (kind: HistoryKind, id: string, type: string, count = 1) =>
  waitFor(
    () => page(kind, id),
    (history) => history.events.filter((e) => e.type === type).length >= count,
  );

const inLogOrder = (events: readonly HistoryEntry[]) =>
  events.every((e, i) => i === 0 || compareLogPositions(parsePositionToken(events[i - 1]!.position)!, parsePositionToken(e.position)!) < 0);

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '0' });
  admin = await forum.demoAdmin();
  [member, other] = await Promise.all([forum.newUser('Audited Member'), forum.newUser('Other Member')]);
  for (const who of [member, other]) {
    await forum.register(who.token);
    await expectStatus(forum.api(`/api/users/membership/${who.email}`, { method: 'PATCH', token: who.token }));
  }
  // the member's posts beyond the free limit are a member's posts: no PostAuthored on their stream
  for (let i = 0; i < 6; i++) ownPost = (await post(member, `Member post ${i}`)).id;
  othersPost = (await post(other, "The other's post")).id;
  othersComment = (await comment(other, othersPost, 'A comment by the other')).id;
  await comment(member, othersPost, 'A comment by the member');
  await like(member, othersPost);
  await report(member, othersComment);
  // the other does the same to the member's post: none of it is the member's doing
  const onOwn = await comment(other, ownPost, 'The other on the member’s post');
  await like(other, ownPost);
  await report(member, onOwn.id);
  await expectStatus(forum.api(`/api/admin/warn-user/${member.email}`, { method: 'POST', token: admin.token, json: { reason: 'Be kind' } }), 201);
  await expectStatus(forum.api(`/api/admin/users/make-admin/${encodeURIComponent(member.id)}`, { method: 'PATCH', token: admin.token }));
}, 120_000);
afterAll(() => forum?.stop());

describe('the history of a user or a post', () => {
  it('#28.3 a user’s history is every event they caused and every event about them, in log order, paged, and no one else’s', async () => {
    const whole = await historyWith('user', member.id, 'AdminRoleGranted');
    expect(whole.nextAfter).toBeNull();
    const mine = (type: string, streamPrefix: string, actor = member.id) => ({ type, streamId: matching(new RegExp(`^${streamPrefix}`)), actor });
    expect(whole.events.map(({ type, streamId, actor }) => ({ type, streamId, actor }))).toEqual([
      // the registration call gives a handle: claimed on its own stream in the same append
      mine('HandleClaimed', 'handle-'),
      mine('UserRegistered', `user-${member.id}`),
      mine('HandleChanged', `user-${member.id}`),
      mine('MembershipPurchaseStarted', `user-${member.id}`),
      objectContaining({ type: 'MembershipPurchased', streamId: `user-${member.id}` }),
      ...Array.from({ length: 6 }, () => mine('PostCreated', 'post-')),
      mine('CommentAdded', 'comment-'),
      mine('VoteCast', `vote-${othersPost}-${member.id}`),
      mine('CommentReported', `report-${othersComment}-${member.id}`),
      mine('CommentReported', 'report-'),
      mine('UserWarned', `notifications-${member.id}`, admin.id),
      mine('AdminRoleGranted', `user-${member.id}`, admin.id),
    ]);
    expect(inLogOrder(whole.events)).toBe(true);
    // the other member's own doing is in neither form
    expect(whole.events.filter((e) => e.actor === other.id)).toEqual([]);
    expect(whole.actors[admin.id]).toMatchObject({ email: 'admin@forum.local' });

    // pages of 4 give the same events, each once, in the same order
    const paged = await allPages('user', member.id, 4);
    expect(paged.pages).toBe(Math.ceil(whole.events.length / 4));
    expect(paged.events).toEqual(whole.events);
  });

  it('#28.3 a post’s history is its stream with its comments, votes and reports, in log order, paged', async () => {
    const whole = await historyWith('post', othersPost, 'CommentReported');
    expect(whole.events.map(({ type, actor }) => ({ type, actor }))).toEqual([
      { type: 'PostCreated', actor: other.id },
      { type: 'CommentAdded', actor: other.id },
      { type: 'CommentAdded', actor: member.id },
      { type: 'VoteCast', actor: member.id },
      { type: 'CommentReported', actor: member.id },
    ]);
    expect(inLogOrder(whole.events)).toBe(true);
    expect(whole.events.every((e) => (e.data as { postId: string }).postId === othersPost)).toBe(true);
    expect((await allPages('post', othersPost, 2)).events).toEqual(whole.events);
    // the member's own post: the other's comment, vote and the member's report of that comment are about it
    const own = await historyWith('post', ownPost, 'CommentReported');
    expect(own.events.map(({ type, actor }) => ({ type, actor }))).toEqual([
      { type: 'PostCreated', actor: member.id },
      { type: 'CommentAdded', actor: other.id },
      { type: 'VoteCast', actor: other.id },
      { type: 'CommentReported', actor: member.id },
    ]);
  });

  it('#41.1 edits show in the editor’s history and in the post’s: the post’s own, its comments’, and staff’s with their reason', async () => {
    const edit = (who: { token: string }, path: string, json: object) => expectStatus(forum.api(path, { method: 'PATCH', token: who.token, json }));
    const { id: postId } = await post(other, 'Helo');
    const { id: commentId } = await comment(member, postId, 'Nice psot');
    await edit(other, `/api/posts/${postId}`, { title: 'Hello' });
    await edit(member, `/api/comments/${commentId}`, { text: 'Nice post' });
    await edit(admin, `/api/comments/${commentId}`, { text: 'Nice post!', reason: 'Punctuation' });
    const history = await historyWith('post', postId, 'CommentEdited', 2);
    expect(history.events.map(({ type, actor, data }) => ({ type, actor, data }))).toEqual([
      objectContaining({ type: 'PostCreated', actor: other.id }),
      objectContaining({ type: 'CommentAdded', actor: member.id }),
      { type: 'PostEdited', actor: other.id, data: objectContaining({ title: 'Hello', revision: 1 }) },
      { type: 'CommentEdited', actor: member.id, data: objectContaining({ postId, text: 'Nice post', revision: 1 }) },
      { type: 'CommentEdited', actor: admin.id, data: objectContaining({ text: 'Nice post!', reason: 'Punctuation', revision: 2 }) },
    ]);
    const members = await historyWith('user', member.id, 'CommentEdited');
    expect(members.events.filter((e) => e.type.endsWith('Edited')).map((e) => [e.type, e.actor])).toEqual([['CommentEdited', member.id]]);
  });

  it('#28.3 an erased member’s history keeps showing, their personal data as erased', async () => {
    const gone = await forum.newUser('Gone Member');
    await forum.register(gone.token);
    const { id: postId } = await post(gone, 'Soon erased');
    await comment(gone, othersPost, 'Soon erased too');
    await expectStatus(forum.api('/api/me', { method: 'DELETE', token: gone.token, json: { content: 'keep' } }));
    const history = await historyWith('user', gone.id, 'AccountErased');
    expect(history.events.map((e) => e.type)).toEqual([
      'HandleClaimed',
      'UserRegistered',
      'HandleChanged',
      'PostCreated',
      'PostAuthored',
      'CommentAdded',
      'AccountErased',
    ]);
    expect(history.events[0]!.data).toMatchObject({ userId: gone.id, handle: '[erased]' });
    expect(history.events[1]!.data).toMatchObject({ userId: gone.id, name: '[erased]', email: '[erased]' });
    expect(history.events[2]!.data).toMatchObject({ userId: gone.id, handle: '[erased]' });
    expect(history.events[3]!.data).toMatchObject({ postId, authorName: '[erased]', authorEmail: '[erased]' });
    expect(JSON.stringify(history.events)).not.toContain(gone.email);
    expect(JSON.stringify(history.events)).not.toContain('Gone Member');
  });

  it('#28.3 answers 404 for a history with no event, and 400 for an `after` or `limit` that cannot be one, appending nothing', async () => {
    expect((await forum.api('/api/admin/history/user/nobody-at-all', { token: admin.token })).status).toBe(404);
    for (const query of ['after=12', 'after=a.b', 'limit=0', 'limit=201', 'limit=2.5']) {
      const answer = await forum.api(`/api/admin/history/user/${member.id}?${query}`, { token: admin.token });
      expect(answer.status, query).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });
});
