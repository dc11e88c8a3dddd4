// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { postItem as item } from '../../../testing/post-items';
import { renderWithApp } from '../../../testing/render-with-app';
import { TaggedPosts } from './TaggedPosts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the tag page', () => {
  it('asks for the posts with the tag and shows each as a card with its title, summary and tags', async () => {
    const asked: URL[] = [];
    const { calls } = stubApi({
      'GET /api/posts/search': (request) => {
        asked.push(new URL(request.url));
        return { body: [item('p1', 'Zero-downtime deploys', ['DevOps', 'Databases']), item('p2', 'Node.js 20 vs 22', ['DevOps'])], headers: { 'X-Total-Count': '2' } };
      },
    });
    renderWithApp(<TaggedPosts tag="DevOps" />);

    await screen.findByRole('heading', { level: 1, name: 'Posts Tagged with: #DevOps' });
    const card = (await screen.findByRole('link', { name: 'Zero-downtime deploys' })).closest('article')!;
    expect(within(card).getByRole('link', { name: 'Zero-downtime deploys' }).getAttribute('href')).toBe('/post/p1');
    within(card).getByText('Zero-downtime deploys in short...');
    expect(within(within(card).getByRole('list', { name: 'Tags' })).getAllByRole('link').map((link) => link.textContent)).toEqual(['#DevOps', '#Databases']);
    expect(screen.getAllByRole('article')).toHaveLength(2);

    expect(calls[0]).toBe('GET /api/posts/search');
    expect(asked[0]!.searchParams.get('tag')).toBe('DevOps');
    expect(asked[0]!.searchParams.has('page')).toBe(false);
  });

  it("says 'No posts found.' for a tag without posts", async () => {
    stubApi({ 'GET /api/posts/search': () => ({ body: [] }), 'GET /api/tags': () => ({ body: [] }) });
    renderWithApp(<TaggedPosts tag="nothing" />);
    await screen.findByText('No posts found.');
  });

  it('#28.16 the tag page shows the tag as the forum knows it, whatever the case in the address', async () => {
    stubApi({
      'GET /api/tags': () => ({ body: ['DevOps', 'React'] }),
      'GET /api/posts/search': () => ({ body: [item('p1', 'Hooks or classes?', ['React'])], headers: { 'X-Total-Count': '1' } }),
    });
    renderWithApp(<TaggedPosts tag="rEaCt" />);
    await screen.findByRole('link', { name: 'Hooks or classes?' });
    await screen.findByRole('heading', { level: 1, name: 'Posts Tagged with: #React' });
    expect(document.title).toBe('#React · Forum');
  });
});
