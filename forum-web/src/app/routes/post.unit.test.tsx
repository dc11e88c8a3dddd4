// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Routes, stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../testing/render-with-app';
import { PostPage } from './post';
import { PostCommentsPage } from './post-comments';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MISSING = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
// what the query service answers: 400 for an id that cannot be one, 404 for a post that does not exist
const notAnId = () => ({
  status: 400,
  body: { error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { id: ['Not a post id'] } } },
});
const noSuchPost = () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such post' } } });
const broken = () => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong' } } });

const showPost = (path: string) => renderWithApp(<PostPage />, { path, route: '/post/:id' });
const showComments = (path: string) => renderWithApp(<PostCommentsPage />, { path, route: '/post/:postId/comments' });

async function expectNotFound() {
  expect(await screen.findByRole('heading', { name: 'Post not found' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  expect(screen.queryByText('This post could not be loaded.')).toBeNull();
  expect(screen.queryByText('Failed to load comments')).toBeNull();
}

describe('a post that is not there', () => {
  it('a deleted post (the server’s 410) shows the deleted page, with its way home', async () => {
    const gone = () => ({ status: 410, body: { error: { code: 'GONE', message: 'This post was deleted' } } });
    stubApi({ [`GET /api/posts/${MISSING}`]: gone, [`GET /api/posts/${MISSING}/comments`]: noSuchPost });
    showPost(`/post/${MISSING}`);
    expect(await screen.findByRole('heading', { name: 'Post deleted' })).toBeTruthy();
    expect(screen.getByText('This post was deleted.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByText('This post could not be loaded.')).toBeNull();
  });

  it('#28.7 /post/<not an id> and the comments page of a missing post show the not-found page; a server error keeps its message', async () => {
    const routes: Routes = {
      'GET /api/posts/not-an-id': notAnId,
      'GET /api/posts/not-an-id/comments': notAnId,
      [`GET /api/posts/${MISSING}`]: noSuchPost,
      [`GET /api/posts/${MISSING}/comments`]: noSuchPost,
    };
    stubApi(routes);
    showPost('/post/not-an-id');
    await expectNotFound();
    cleanup();
    showPost(`/post/${MISSING}`);
    await expectNotFound();
    cleanup();
    showComments('/post/not-an-id/comments');
    await expectNotFound();
    cleanup();
    showComments(`/post/${MISSING}/comments`);
    await expectNotFound();
    cleanup();

    stubApi({ [`GET /api/posts/${MISSING}`]: broken, [`GET /api/posts/${MISSING}/comments`]: broken });
    showPost(`/post/${MISSING}`);
    expect(await screen.findByText('This post could not be loaded.')).toBeTruthy();
    cleanup();
    showComments(`/post/${MISSING}/comments`);
    expect((await screen.findAllByText('Failed to load comments')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('heading', { name: 'Post not found' })).toBeNull();
  });
});
