// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, stubApi } from '@forum/web-ui/testing';
import { postItem } from '../../../testing/post-items';
import { renderWithApp } from '../../../testing/render-with-app';
import { TagSearch } from './TagSearch';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reactPost = postItem('6f1c8a52-1111-4a4a-9a9a-000000000001', 'Hooks or classes?', ['React']);

describe('the search by tag', () => {
  it('#28.16 the search by tag shows the tag as the forum knows it, not as the reader typed it', async () => {
    stubApi({
      'GET /api/tags': () => ({ body: ['JavaScript', 'React'] }),
      // the server matches tags whatever their case
      'GET /api/posts/search': () => ({ body: { posts: [reactPost], totalCount: 1 } }),
    });
    renderWithApp(<TagSearch />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Tag' }), 'rEaCt');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const results = await screen.findByRole('list', { name: 'Posts tagged React' });
    within(results).getByRole('link', { name: 'Hooks or classes?' });
    expect(screen.getByText('1 post tagged #React')).toBeTruthy();
    expect(screen.queryByText(/rEaCt/)).toBeNull();
  });

  it.each([
    ['nothing', ''],
    ['only a #', '#'],
    ['only spaces and #s', '  # # '],
  ])('#39 edge 21: with %s it says "Type a tag" on the field and asks the API nothing', async (_case, typed) => {
    const { calls } = stubApi({ 'GET /api/tags': () => ({ body: ['React'] }) });
    renderWithApp(<TagSearch />);
    const field = screen.getByRole('textbox', { name: 'Tag' });
    if (typed) await userEvent.type(field, typed);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(descriptionOf(field)).toBe('Type a tag');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((call) => call.startsWith('GET /api/posts'))).toEqual([]);
    // typing again clears the message
    await userEvent.type(field, 'R');
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('Type a tag')).toBeNull();
  });
});
