// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postItem as item } from '../../../testing/post-items';
import { describeRequest, json, renderWithApp } from '../../../testing/render-with-app';
import { TaggedPosts } from './TaggedPosts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the tag page', () => {
  it('asks for the posts with the tag and shows each as a card with its title, summary and tags', async () => {
    const fetch = vi.fn(async () => json([item('p1', 'Zero-downtime deploys', ['DevOps', 'Databases']), item('p2', 'Node.js 20 vs 22', ['DevOps'])], 200, { 'X-Total-Count': '2' }));
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<TaggedPosts tag="DevOps" />);

    await screen.findByRole('heading', { level: 1, name: 'Posts Tagged with: #DevOps' });
    const card = (await screen.findByRole('link', { name: 'Zero-downtime deploys' })).closest('article')!;
    expect(within(card).getByRole('link', { name: 'Zero-downtime deploys' }).getAttribute('href')).toBe('/post/p1');
    within(card).getByText('Zero-downtime deploys in short...');
    expect(within(within(card).getByRole('list', { name: 'Tags' })).getAllByRole('link').map((link) => link.textContent)).toEqual(['#DevOps', '#Databases']);
    expect(screen.getAllByRole('article')).toHaveLength(2);

    const [input, init] = fetch.mock.calls[0] as unknown as [RequestInfo, RequestInit | undefined];
    const request = new URL((input instanceof Request ? input : new Request(input, init)).url);
    expect(describeRequest(input, init).path).toBe('/posts/search');
    expect(request.searchParams.get('tag')).toBe('DevOps');
    expect(request.searchParams.has('page')).toBe(false);
  });

  it("says 'No posts found.' for a tag without posts", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json([])));
    renderWithApp(<TaggedPosts tag="nothing" />);
    await screen.findByText('No posts found.');
  });

  it('#28.16 the tag page shows the tag as the forum knows it, whatever the case in the address', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
        describeRequest(input, init).path === '/tags' ? json(['DevOps', 'React']) : json([item('p1', 'Hooks or classes?', ['React'])], 200, { 'X-Total-Count': '1' }),
      ),
    );
    renderWithApp(<TaggedPosts tag="rEaCt" />);
    await screen.findByRole('link', { name: 'Hooks or classes?' });
    await screen.findByRole('heading', { level: 1, name: 'Posts Tagged with: #React' });
    expect(document.title).toBe('#React · Forum');
  });
});
