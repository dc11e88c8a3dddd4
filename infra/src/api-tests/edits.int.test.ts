import { randomUUID } from 'node:crypto';
import {
  HEADER_MIN_POSITION,
  positionToken,
  postStream,
  type AuditPage,
  type CommentItem,
  type CommentRevisions,
  type PostDetail,
  type PostEdited,
  type PostRevisions,
  type PostsPage,
  type SearchPage,
} from '@forum/contracts';
import { anyString } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { editAppend } from '../testing/edits.ts';
import { openStream, type SseMessage } from '../testing/sse-client.ts';

/**
 * The read side of editing (issue #41): a post's and a comment's edits, appended to the log as the
 * command side writes them, read through the whole forum: the reads' `editedAt` and
 * `revisionCount`, the revisions' routes, search and tags after an edit, the staff action log, and
 * the change stream's messages.
 */
let forum: TestForum;
let author: NewUser;
let reader: NewUser;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum();
  [author, reader] = [await forum.newUser('Heron Writer'), await forum.newUser('Heron Reader')];
  admin = await forum.demoAdmin();
  for (const user of [author, reader]) await forum.register(user.token);
  // a member: the free post limit does not stand in the way of the posts below
  await forum.call('PATCH', `/api/users/membership/${author.email}`, { token: admin.token });
  for (const name of ['Birds', 'Wading']) await forum.call('POST', '/api/admin/tags', { token: admin.token, body: { name }, expect: 201 });
}, 60_000);
afterAll(() => forum?.stop());

/** An edit's time: `minutes` after now (after the post it edits was written). */
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const post = (title: string, tags: string[] = []) =>
  forum.call<{ id: string; position: string }>('POST', '/api/posts', {
    token: author.token,
    body: { title, description: `${title}, told at length`, tags },
    expect: 201,
  });
const comment = (postId: string, text: string) =>
  forum.call<{ id: string; position: string }>('POST', '/api/comments', { token: author.token, body: { postId, text }, expect: 201 });

/** An edit appended as the command side writes it; answers its position, for a read that must reflect it. */
const edited = async (...edit: Parameters<typeof editAppend>) => positionToken((await forum.store.append([editAppend(...edit)])).lastPosition);
const editPost = (postId: string, fields: Pick<PostEdited['data'], 'title' | 'description' | 'tags'>, revision: number, by = author.id, reason?: string) =>
  edited({
    type: 'PostEdited',
    data: {
      postId,
      authorId: author.id,
      editorId: by,
      ...fields,
      ...(reason !== undefined && { reason }),
      revision,
      editedAt: later(revision),
    },
  });
const editComment = (postId: string, commentId: string, text: string, revision: number, by = author.id, reason?: string) =>
  edited({
    type: 'CommentEdited',
    data: {
      commentId,
      postId,
      authorId: author.id,
      editorId: by,
      text,
      ...(reason !== undefined && { reason }),
      revision,
      editedAt: later(revision),
    },
  });
const at = (position: string) => ({ headers: { [HEADER_MIN_POSITION]: position } });

describe('a post edited by its author, then by an admin with a reason', () => {
  it('reads as its latest revision, with editedAt and revisionCount, everywhere a post is read', async () => {
    const written = await post('Herons at dawn', ['Birds']);
    await editPost(written.id, { title: 'Herons at dusk', description: 'Herons at dusk, told at length', tags: ['Birds'] }, 2);
    const last = await editPost(
      written.id,
      { title: 'Egrets at dusk', description: 'Egrets wading, told again', tags: ['Wading'] },
      3,
      admin.id,
      'Named the bird',
    );

    const detail = await forum.call<PostDetail>('GET', `/api/posts/${written.id}`, at(last));
    expect(detail).toMatchObject({
      title: 'Egrets at dusk',
      description: 'Egrets wading, told again',
      tags: ['Wading'],
      editedAt: anyString,
      revisionCount: 3,
    });
    expect(Date.parse(detail.editedAt!)).toBeGreaterThan(Date.parse(detail.createdAt));
    const home = await forum.call<PostsPage>('GET', '/api/posts', at(last));
    expect(home.posts.find((p) => p._id === written.id)).toMatchObject({ title: 'Egrets at dusk', editedAt: detail.editedAt, revisionCount: 3 });

    // search finds it by its new words, no longer by the removed ones
    const search = (q: string) => forum.call<SearchPage>('GET', `/api/posts/search?q=${q}&page=1`, at(last));
    expect((await search('egrets')).posts.map((p) => p._id)).toContain(written.id);
    expect((await search('herons')).posts.map((p) => p._id)).not.toContain(written.id);
    // its tags moved: found under the new one, counted there, gone from the old
    const tagged = (tag: string) => forum.api(`/api/posts/search?tag=${tag}`, at(last));
    const wading = await tagged('Wading');
    expect(((await wading.json()) as { _id: string }[]).map((p) => p._id)).toEqual([written.id]);
    expect(wading.headers.get('x-total-count')).toBe('1');
    const birds = await tagged('Birds');
    expect(((await birds.json()) as { _id: string }[]).map((p) => p._id)).not.toContain(written.id);
  });

  it('lists its revisions oldest first: number, time, editor, reason and the fields, for anyone', async () => {
    const written = await post('Kingfishers', ['Birds']);
    await editPost(written.id, { title: 'Kingfishers', description: 'Kingfishers, told better', tags: ['Birds'] }, 2);
    const last = await editPost(
      written.id,
      { title: 'Kingfishers!', description: 'Kingfishers, told better', tags: ['Birds'] },
      3,
      admin.id,
      'Fixed the title',
    );
    const { revisions, totalCount } = await forum.call<PostRevisions>('GET', `/api/posts/${written.id}/revisions`, at(last));
    expect(totalCount).toBe(3);
    expect(revisions).toEqual([
      { number: 1, editedAt: anyString, editorName: 'Heron Writer', title: 'Kingfishers', description: 'Kingfishers, told at length', tags: ['Birds'] },
      { number: 2, editedAt: anyString, editorName: 'Heron Writer', title: 'Kingfishers', description: 'Kingfishers, told better', tags: ['Birds'] },
      {
        number: 3,
        editedAt: anyString,
        editorName: 'Forum Admin',
        reason: 'Fixed the title',
        title: 'Kingfishers!',
        description: 'Kingfishers, told better',
        tags: ['Birds'],
      },
    ]);
    expect(revisions.map((r) => Date.parse(r.editedAt))).toEqual(revisions.map((r) => Date.parse(r.editedAt)).sort());

    // a post never edited: its one revision, as created, and no editedAt
    const plain = await post('Never edited');
    const read = await forum.call<PostDetail>('GET', `/api/posts/${plain.id}`, at(plain.position));
    expect(read.revisionCount).toBe(1);
    expect(read).not.toHaveProperty('editedAt');
    const one = await forum.call<PostRevisions>('GET', `/api/posts/${plain.id}/revisions`, at(plain.position));
    expect(one).toEqual({
      totalCount: 1,
      revisions: [
        { number: 1, editedAt: read.createdAt, editorName: 'Heron Writer', title: 'Never edited', description: 'Never edited, told at length', tags: [] },
      ],
    });
  });

  it("the staff action log lists the admin's edit with its reason, not the author's own", async () => {
    const written = await post('Storks');
    await editPost(written.id, { title: 'Storks', description: 'Storks nest on roofs', tags: [] }, 2);
    const last = await editPost(written.id, { title: 'White storks', description: 'Storks nest on roofs', tags: [] }, 3, admin.id, 'A clearer title');
    const log = await forum.call<AuditPage>('GET', '/api/admin/audit?type=PostEdited', { token: admin.token, ...at(last) });
    const entries = log.entries.filter((e) => e.target.id === written.id);
    expect(entries).toEqual([
      {
        _id: anyString,
        at: anyString,
        actor: { id: admin.id, name: 'Forum Admin', email: 'admin@forum.local' },
        type: 'PostEdited',
        target: { type: 'post', id: written.id },
        summary: 'Edited a post by Heron Writer: A clearer title',
      },
    ]);
  });
});

describe('a comment edited', () => {
  it('reads as its latest text with editedAt and revisionCount, and lists its revisions', async () => {
    const target = await post('Comment target');
    const added = await comment(target.id, 'Lovely herons');
    const last = await editComment(target.id, added.id, 'Lovely egrets', 2, admin.id, 'Named the bird');
    const { comments } = await forum.call<{ comments: CommentItem[] }>('GET', `/api/posts/${target.id}/comments`, at(last));
    expect(comments).toEqual([expect.objectContaining({ _id: added.id, text: 'Lovely egrets', editedAt: anyString, revisionCount: 2 })]);
    const { revisions } = await forum.call<CommentRevisions>('GET', `/api/comments/${added.id}/revisions`, at(last));
    expect(revisions).toEqual([
      { number: 1, editedAt: comments[0]!.createdAt, editorName: 'Heron Writer', text: 'Lovely herons' },
      { number: 2, editedAt: comments[0]!.editedAt, editorName: 'Forum Admin', reason: 'Named the bird', text: 'Lovely egrets' },
    ]);
    const log = await forum.call<AuditPage>('GET', '/api/admin/audit?type=CommentEdited', { token: admin.token, ...at(last) });
    expect(log.entries.find((e) => e.target.id === added.id)?.summary).toBe('Edited a comment by Heron Writer: Named the bird');
  });
});

describe('the revisions of what cannot be read', () => {
  it('answer 404 as the content does (unknown, deleted, removed), and 400 for an id that is none', async () => {
    const doomed = await post('Soon deleted');
    const gone = await comment(doomed.id, 'Soon removed');
    await editPost(doomed.id, { title: 'Soon deleted', description: 'Edited first', tags: [] }, 2);
    const removed = await forum.call<{ position: string }>('DELETE', `/api/admin/comments/${gone.id}`, { token: admin.token });
    expect((await forum.api(`/api/comments/${gone.id}/revisions`, at(removed.position))).status).toBe(404);
    // deleted as the command side writes it (its decision of an edited post's deletion is the write side's to test)
    const metadata = { actorId: author.id, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
    const deletion = { postId: doomed.id, authorId: author.id, deletedBy: author.id, deletedAt: later(0) };
    const deleted = await forum.store.append([
      { streamId: postStream(doomed.id), expectedVersion: 'any', events: [{ type: 'PostDeleted', data: deletion, metadata }] },
    ]);
    expect((await forum.api(`/api/posts/${doomed.id}`, at(positionToken(deleted.lastPosition)))).status).toBe(410);
    expect((await forum.api(`/api/posts/${doomed.id}/revisions`)).status).toBe(404);
    expect((await forum.api(`/api/posts/${randomUUID()}/revisions`)).status).toBe(404);
    expect((await forum.api(`/api/comments/${randomUUID()}/revisions`)).status).toBe(404);
    expect((await forum.api('/api/posts/not-an-id/revisions')).status).toBe(400);
    expect((await forum.api('/api/comments/not-an-id/revisions')).status).toBe(400);
  });
});

describe('the change stream', () => {
  it("tells a post's page that it or a comment was edited, and the home page that a post was", async () => {
    const target = await post('Watched live');
    const added = await comment(target.id, 'Watched comment');
    const open = async (topics: string) => {
      const stream = await openStream(forum.url.replace('localhost', '127.0.0.1'), `/api/stream?topics=${topics}`, {});
      onTestFinished(() => stream.close());
      await stream.next((m) => m.event === 'ready');
      return stream;
    };
    const [page, home] = [await open(`post:${target.id}`), await open('posts')];
    const about = (event: string, key: string, value: string) => (m: SseMessage) => m.event === event && m.data[key] === value;
    const postEdit = await editPost(target.id, { title: 'Watched live, edited', description: 'x', tags: [] }, 2);
    expect((await page.next(about('post-edited', 'postId', target.id))).data).toEqual({ postId: target.id, position: postEdit });
    expect((await home.next(about('post-edited', 'postId', target.id))).data).toEqual({ postId: target.id, position: postEdit });
    // the message comes once the read model has the edit: a read without waiting shows it
    expect((await forum.call<PostDetail>('GET', `/api/posts/${target.id}`)).title).toBe('Watched live, edited');
    const commentEdit = await editComment(target.id, added.id, 'Watched comment, edited', 2);
    expect((await page.next(about('comment-edited', 'commentId', added.id))).data).toEqual({ postId: target.id, commentId: added.id, position: commentEdit });
    expect(home.messages.filter((m) => m.event === 'comment-edited')).toEqual([]);
  });
});

describe('after an erasure with the content kept', () => {
  it('the revisions keep their text and name the erased editor "Deleted user"', async () => {
    const leaving = await forum.newUser('Leaving Writer');
    await forum.register(leaving.token);
    const written = await forum.call<{ id: string }>('POST', '/api/posts', {
      token: leaving.token,
      body: { title: 'Ospreys', description: 'Ospreys dive', tags: [] },
      expect: 201,
    });
    await edited({
      type: 'PostEdited',
      data: {
        postId: written.id,
        authorId: leaving.id,
        editorId: leaving.id,
        title: 'Ospreys',
        description: 'Ospreys dive for fish',
        tags: [],
        revision: 2,
        editedAt: later(1),
      },
    });
    const erased = await forum.call<{ position: string }>('DELETE', `/api/admin/users/${leaving.id}`, { token: admin.token, body: { content: 'keep' } });
    const { revisions } = await forum.call<PostRevisions>('GET', `/api/posts/${written.id}/revisions`, at(erased.position));
    expect(revisions.map((r) => [r.editorName, r.description])).toEqual([
      ['Deleted user', 'Ospreys dive'],
      ['Deleted user', 'Ospreys dive for fish'],
    ]);
  });
});
