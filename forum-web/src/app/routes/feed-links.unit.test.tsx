// @vitest-environment jsdom
import type { PostDetail } from '@forum/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { commentPage } from '../../features/comments/testing/comment-pages';
import { postItem } from '../../testing/post-items';
import { renderWithApp } from '../../testing/render-with-app';
import { PostPage } from './post';
import { TagPage } from './tag';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
/** The Atom feeds the document's head names, as [title, href]. */
const feedLinks = () =>
  [...document.head.querySelectorAll('link[rel="alternate"][type="application/atom+xml"]')].map((link) => [
    link.getAttribute('title'),
    link.getAttribute('href'),
  ]);

describe('the feeds a page names in the head (issue #46)', () => {
  it('a post page names its comments’ feed once the post is there, and no longer once left', async () => {
    stubApi({
      [`GET /api/posts/${POST_ID}`]: () => ({ body: { ...postItem(POST_ID, 'Herons at dawn', []), description: 'Seen twice.' } as PostDetail }),
      [`GET /api/posts/${POST_ID}/comments`]: (request) => ({ body: commentPage([], request, 20) }),
    });
    renderWithApp(<PostPage />, { path: `/post/${POST_ID}`, route: '/post/:id' });
    await screen.findByRole('heading', { name: 'Herons at dawn' });
    await waitFor(() => expect(feedLinks()).toEqual([['Comments on Herons at dawn', `/feeds/posts/${POST_ID}/comments.xml`]]));
    cleanup();
    expect(feedLinks()).toEqual([]);
  });

  it('a tag page names the tag’s feed, its name encoded', () => {
    stubApi({ 'GET /api/posts/search': () => ({ body: { posts: [], totalCount: 0 } }) });
    renderWithApp(<TagPage />, { path: '/tags/C%23%20%26%20.NET', route: '/tags/:tag' });
    expect(feedLinks()).toEqual([['Posts tagged C# & .NET', '/feeds/tags/C%23%20%26%20.NET.xml']]);
  });
});
