// @vitest-environment jsdom
import type { CommentItem, PostDetail } from '@forum/contracts';
import { QueryStatus } from '@reduxjs/toolkit/query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { commentPage } from '../../features/comments/testing/comment-pages';
import { installFakeEventSource, streamFollowing } from '../../testing/fake-event-source';
import { postItem } from '../../testing/post-items';
import { ALICE, renderWithApp } from '../../testing/render-with-app';
import { PostPage } from './post';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const comment = (n: number, by = 'Bob Chen'): CommentItem => ({
  _id: `c${n}`,
  postId: POST_ID,
  text: `Comment ${n}`,
  authorName: by,
  authorId: 'u-bob',
  authorPhoto: '',
  createdAt: '2026-11-23T18:00:00.000Z',
  revisionCount: 1,
});

/** The post and its comments (newest first) as the server has them; reads kept as "what X-Min-Position". */
function stubPost() {
  const server = {
    post: { ...postItem(POST_ID, 'Live post', ['DevOps']), description: 'What it is about.', upVote: 1, downVote: 0, commentCount: 1 } as PostDetail,
    comments: [comment(1)],
    deleted: false,
    reads: [] as string[],
  };
  const read = (what: string, request: Request) => server.reads.push(`${what} ${request.headers.get('X-Min-Position') ?? '-'}`);
  stubApi({
    [`GET /api/posts/${POST_ID}`]: (request) => {
      read('post', request);
      return server.deleted ? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such post' } } } : { body: server.post };
    },
    [`GET /api/posts/${POST_ID}/comments`]: (request) => {
      read('comments', request);
      return { body: commentPage(server.comments, request, 20) };
    },
    'POST /api/comments': async (request) => {
      const { text } = (await request.json()) as { text: string };
      server.comments.unshift({ ...comment(9, 'Alice'), text });
      return { status: 201, body: { id: 'c9', position: '300.9' } };
    },
  });
  return server;
}

const showPost = () => renderWithApp(<PostPage />, { path: `/post/${POST_ID}`, route: '/post/:id', user: ALICE });
const commentTexts = () =>
  within(screen.getByRole('list', { name: 'Comments' }))
    .getAllByRole('listitem')
    .map((item) => within(item).getByText(/^(Comment \d|.*!)$/).textContent);

const postStream = () => streamFollowing(`post:${POST_ID}`);

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
  installFakeEventSource();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a post page, live', () => {
  it("moves the post's counts as the stream gives them, without reading the post again", async () => {
    const server = stubPost();
    showPost();
    await screen.findByRole('button', { name: 'Like 1' });
    const stream = await postStream();

    stream.send('post-counts', { position: '200.1', postId: POST_ID, upVote: 3, downVote: 2, commentCount: 5 }, '200.1');
    await screen.findByRole('button', { name: 'Like 3' });
    expect(screen.getByRole('button', { name: 'Dislike 2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '5 comments' })).toBeTruthy();
    expect(server.reads.filter((r) => r.startsWith('post'))).toEqual(['post -']);
  });

  it('shows a comment written elsewhere first, read at its position, and takes out a removed one', async () => {
    const server = stubPost();
    showPost();
    await waitFor(() => expect(commentTexts()).toEqual(['Comment 1']));
    const stream = await postStream();

    server.comments.unshift(comment(2));
    stream.send('comment-added', { position: '210.2', postId: POST_ID, commentId: 'c2' }, '210.2');
    await waitFor(() => expect(commentTexts()).toEqual(['Comment 2', 'Comment 1']));
    expect(server.reads).toContain('comments 210.2');

    stream.send('comment-removed', { position: '210.3', postId: POST_ID, commentId: 'c1' }, '210.3');
    await waitFor(() => expect(commentTexts()).toEqual(['Comment 2']));
  });

  it("does not read the list again for the reader's own comment, which the list shows already", async () => {
    const server = stubPost();
    const { store } = showPost();
    await waitFor(() => expect(commentTexts()).toEqual(['Comment 1']));
    const stream = await postStream();
    const commentsRead = () =>
      Object.values(store.getState().api.queries).some((query) => query?.endpointName === 'getComments' && query.status === QueryStatus.pending);

    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'Mine!');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(commentTexts()).toEqual(['Mine!', 'Comment 1']));
    await waitFor(() => expect(commentsRead()).toBe(false));
    const reads = server.reads.filter((r) => r.startsWith('comments')).length;

    // (a read it asked for would be under way at once: nothing else is being read)
    stream.send('comment-added', { position: '300.9', postId: POST_ID, commentId: 'c9' }, '300.9');
    expect(commentsRead()).toBe(false);
    stream.send('post-counts', { position: '300.9', postId: POST_ID, upVote: 1, downVote: 0, commentCount: 2 }, '300.9');
    await screen.findByRole('link', { name: '2 comments' });
    expect(server.reads.filter((r) => r.startsWith('comments'))).toHaveLength(reads);
    expect(commentTexts()).toEqual(['Mine!', 'Comment 1']);
  });

  it("shows the reader's own comment when the first read after it answers that the read models are behind (X-Read-Behind), with no message from the stream", async () => {
    const server = stubPost();
    let behind = 0;
    stubApi({
      [`GET /api/posts/${POST_ID}`]: () => ({ body: server.post }),
      [`GET /api/posts/${POST_ID}/comments`]: (request) => {
        server.reads.push(`comments ${request.headers.get('X-Min-Position') ?? '-'}`);
        // the projections have not applied the comment yet: the server waited, then answered without it
        if (request.headers.get('X-Min-Position') === '100.9' && behind++ < 2)
          return { body: commentPage([comment(1)], request, 20), headers: { 'X-Read-Behind': 'true' } };
        return { body: commentPage(server.comments, request, 20) };
      },
      'POST /api/comments': async (request) => {
        const { text } = (await request.json()) as { text: string };
        server.comments.unshift({ ...comment(9, 'Alice'), text });
        // (a position below the other tests': the tab keeps its newest write for every read after it)
        return { status: 201, body: { id: 'c9', position: '100.9' }, headers: { 'X-Event-Position': '100.9' } };
      },
    });
    showPost();
    await waitFor(() => expect(commentTexts()).toEqual(['Comment 1']));

    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'Mine!');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(commentTexts()).toEqual(['Mine!', 'Comment 1']), { timeout: 5000 });
    // read again, each time at the comment's position, until the answer was no longer behind
    expect(server.reads.filter((r) => r === 'comments 100.9')).toHaveLength(3);
  });

  it('says the post is not found once the stream says it was deleted', async () => {
    const server = stubPost();
    showPost();
    await screen.findByRole('heading', { name: 'Live post', level: 1 });
    const stream = await postStream();

    server.deleted = true;
    stream.send('post-deleted', { position: '220.1', postId: POST_ID }, '220.1');
    expect(await screen.findByRole('heading', { name: 'Post not found' })).toBeTruthy();
    expect(server.reads).toContain('post 220.1');
  });

  it('#41 reads the post again, as edited, once the stream says it was edited', async () => {
    const server = stubPost();
    showPost();
    await screen.findByRole('heading', { name: 'Live post', level: 1 });
    const stream = await postStream();

    server.post = { ...server.post, title: 'Live post, edited', editedAt: '2026-11-23T18:05:00.000Z', revisionCount: 2 };
    stream.send('post-edited', { position: '225.1', postId: POST_ID }, '225.1');
    expect(await screen.findByRole('heading', { name: 'Live post, edited', level: 1 })).toBeTruthy();
    expect(server.reads).toContain('post 225.1');
  });

  it('#43 reads the post and its comments again when staff act on them: a lock shows, a hidden comment goes', async () => {
    const server = stubPost();
    server.comments = [comment(1), comment(2)];
    showPost();
    await screen.findByRole('heading', { name: 'Live post', level: 1 });
    await screen.findByText('Comment 2');
    const stream = await postStream();

    server.post = { ...server.post, locked: true, lockReason: 'Settled' };
    stream.send('post-moderated', { position: '226.1', postId: POST_ID }, '226.1');
    await screen.findByText('This post is locked: no new comments can be added. Reason: Settled.');
    expect(server.reads).toContain('post 226.1');
    expect(screen.queryByRole('textbox', { name: 'Write a comment' })).toBeNull();

    server.comments = [comment(1)];
    stream.send('comment-moderated', { position: '227.1', postId: POST_ID, commentId: 'c2' }, '227.1');
    await waitFor(() => expect(screen.queryByText('Comment 2')).toBeNull());
    expect(server.reads).toContain('comments 227.1');
  });

  it('leaves a message about another post alone', async () => {
    stubPost();
    showPost();
    await screen.findByRole('button', { name: 'Like 1' });
    const stream = await postStream();
    const other = '3e06aacc-67fc-4d09-87a1-000000000000';
    stream.send('post-counts', { position: '230.1', postId: other, upVote: 9, downVote: 9, commentCount: 9 }, '230.1');
    stream.send('post-counts', { position: '230.2', postId: POST_ID, upVote: 4, downVote: 0, commentCount: 1 }, '230.2');
    await screen.findByRole('button', { name: 'Like 4' });
    expect(screen.getByRole('button', { name: 'Dislike 0' })).toBeTruthy();
  });
});
