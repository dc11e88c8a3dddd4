// @vitest-environment jsdom
import { FREE_POST_LIMIT, POST_DESCRIPTION_MAX, POST_TITLE_MAX } from '@forum/contracts';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, n, rateLimited, type Reply, type Routes, stubApi } from '@forum/web-ui/testing';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import { BOB, me } from '../testing/fixtures';
import { AddPost } from './AddPost';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reads = (count: number, isMember = false): Routes => ({
  'GET /api/me': () => ({ body: me(isMember) }),
  'GET /api/user-post-count/bob%40forum.local': () => ({ body: { count } }),
  'GET /api/tags': () => ({ body: ['React', 'DevOps', 'Career'] }),
});

const renderPage = () => renderWithApp(<AddPost />, { path: '/dashboard/add-post', user: BOB });
const WARNING = "You're approaching the limit for free users.";

describe('Add Post: the free limit', () => {
  it.each([0, 1, 2, 3])('a free user with %i posts sees the count line and the form, no warning', async (count) => {
    stubApi(reads(count));
    renderPage();
    expect(await screen.findByText(`You have created ${count} out of ${FREE_POST_LIMIT} posts.`)).toBeTruthy();
    expect(screen.queryByText(WARNING)).toBeNull();
    expect(screen.getByRole('button', { name: 'Create Post' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Post Limit Reached' })).toBeNull();
  });

  it('a free user with 4 posts is also warned', async () => {
    stubApi(reads(4));
    renderPage();
    expect(await screen.findByText(`You have created 4 out of ${FREE_POST_LIMIT} posts.`)).toBeTruthy();
    expect(screen.getByText(WARNING)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Post' })).toBeTruthy();
  });

  it('a free user with 5 posts gets the Post Limit Reached panel instead of the form', async () => {
    stubApi(reads(5));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Post Limit Reached' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Become a Member' }).getAttribute('href')).toBe('/membership');
    expect(screen.queryByRole('button', { name: 'Create Post' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Post Title *' })).toBeNull();
  });

  it('a member sees neither the count nor the panel, whatever their count', async () => {
    stubApi(reads(12, true));
    renderPage();
    expect(await screen.findByRole('button', { name: 'Create Post' })).toBeTruthy();
    expect(screen.queryByText(/You have created/)).toBeNull();
    expect(screen.queryByText(WARNING)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Post Limit Reached' })).toBeNull();
  });
});

describe('Add Post: the form', () => {
  it('shows the author and sends title, description and the chosen tags, then goes to My Posts', async () => {
    let sent: unknown;
    stubApi({
      ...reads(1),
      'POST /api/posts': async (request) => {
        sent = await request.json();
        return { status: 201, body: { id: '6f1c8a52-1111-4a4a-9a9a-000000000001', position: '12.3' } };
      },
    });
    renderPage();
    expect(await screen.findByText('Bob Chen')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Post Title *' }), 'My new post');
    await userEvent.type(screen.getByRole('textbox', { name: 'Post Description *' }), 'Some words');
    await userEvent.click(screen.getByRole('combobox', { name: 'Tags (Select at least one)' }));
    await userEvent.click(await screen.findByRole('option', { name: 'React' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/my-post'));
    expect(sent).toEqual({ title: 'My new post', description: 'Some words', tags: ['React'] });
  });

  it('asks for title and description before sending anything', async () => {
    const { calls } = stubApi(reads(0));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Create Post' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Description is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Post Title *' }));
    expect(calls).not.toContain('POST /api/posts');
  });

  it(`counts the title against ${POST_TITLE_MAX} and the description against ${POST_DESCRIPTION_MAX} characters; over the limit nothing is sent`, async () => {
    const { calls } = stubApi(reads(0));
    renderPage();
    const title = await screen.findByRole('textbox', { name: 'Post Title *' });
    const description = screen.getByRole('textbox', { name: 'Post Description *' });
    expect(descriptionOf(title)).toBe(`${n(POST_TITLE_MAX)} characters left (0 of ${n(POST_TITLE_MAX)})`);
    expect(descriptionOf(description)).toBe(`${n(POST_DESCRIPTION_MAX)} characters left (0 of ${n(POST_DESCRIPTION_MAX)})`);
    await userEvent.type(description, 'Short');
    expect(descriptionOf(description)).toBe(`${n(POST_DESCRIPTION_MAX - 5)} characters left (5 of ${n(POST_DESCRIPTION_MAX)})`);
    await userEvent.click(title);
    await userEvent.paste('\u{1f600}'.repeat(POST_TITLE_MAX + 1));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(title)).toBe(`1 character too many (the most is ${n(POST_TITLE_MAX)})`);
    await userEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    expect(await screen.findByText(`Title must be at most ${POST_TITLE_MAX} characters`)).toBeTruthy();
    expect(calls).not.toContain('POST /api/posts');
  });

  it.each([
    [
      'a refusal of the fields',
      400,
      () => ({ status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'Invalid request', details: { title: ['Title is too spammy'] } } } }),
      ['Failed to create post', 'Title is too spammy'],
    ],
    // over the post limit: the server's message says when to try again
    ['a 429', 429, () => rateLimited('Too many posts. Try again in 1 minute.', 51), ['Too many posts. Try again in 1 minute.']],
  ])('on %s says so (%s), with the server messages on the fields, and stays', async (_case, _status, answer: () => Reply, shown) => {
    stubApi({ ...reads(0), 'POST /api/posts': answer });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Post Title *' }), 'BUY NOW');
    await userEvent.type(screen.getByRole('textbox', { name: 'Post Description *' }), 'cheap');
    await userEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    for (const text of shown) expect(await screen.findByText(text)).toBeTruthy();
    expect(currentPath()).toBe('/dashboard/add-post');
  });
});

describe('Add Post: publishing', () => {
  const SIX_TAGS = ['React', 'DevOps', 'Career', 'Node', 'Testing', 'Design'];
  const withSixTags = (count: number): Routes => ({ ...reads(count), 'GET /api/tags': () => ({ body: SIX_TAGS }) });

  it('#28.1 Enter in the Tags field picks the highlighted tag and never publishes', async () => {
    const { calls } = stubApi({
      ...withSixTags(0),
      'POST /api/posts': () => ({ status: 201, body: { id: '6f1c8a52-1111-4a4a-9a9a-000000000001', position: '12.3' } }),
    });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Post Title *' }), 'My new post');
    await userEvent.type(screen.getByRole('textbox', { name: 'Post Description *' }), 'Some words');
    const tagsField = screen.getByRole('combobox', { name: 'Tags (Select at least one)' });
    // Enter with nothing typed, with the popup closed
    await userEvent.click(tagsField);
    await userEvent.keyboard('{Escape}{Enter}');
    // the typed text's first match is highlighted and Enter picks it
    await userEvent.type(tagsField, 'rea{Enter}');
    expect(screen.getByRole('button', { name: '#React' })).toBeTruthy();
    for (const tag of ['dev', 'car', 'nod', 'tes']) await userEvent.type(tagsField, `${tag}{Enter}`);
    expect(screen.getAllByRole('button', { name: /^#/ }).map((chip) => chip.textContent)).toEqual(['#React', '#DevOps', '#Career', '#Node', '#Testing']);
    // a sixth is refused by the field, not sent
    await userEvent.type(tagsField, 'des{Enter}');
    await userEvent.keyboard('{Escape}{Enter}');
    expect(screen.queryByRole('button', { name: '#Design' })).toBeNull();
    expect(calls).not.toContain('POST /api/posts');
    expect(currentPath()).toBe('/dashboard/add-post');
    // only Create Post publishes
    await userEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/my-post'));
    expect(calls.filter((call) => call === 'POST /api/posts')).toHaveLength(1);
  });

  it('#28.1 a double submit publishes once, and a retry after a failure sends the same Idempotency-Key', async () => {
    const keys: (string | null)[] = [];
    let release: () => void = () => {};
    let answers = 0;
    stubApi({
      ...reads(0),
      'POST /api/posts': async (request) => {
        keys.push(request.headers.get('Idempotency-Key'));
        answers += 1;
        if (answers === 1) return { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'Try again' } } };
        await new Promise<void>((resolve) => (release = resolve));
        return { status: 201, body: { id: '6f1c8a52-1111-4a4a-9a9a-000000000001', position: '12.3' } };
      },
    });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Post Title *' }), 'My new post');
    await userEvent.type(screen.getByRole('textbox', { name: 'Post Description *' }), 'Some words');
    const create = screen.getByRole('button', { name: 'Create Post' });
    await userEvent.click(create);
    expect(await screen.findByText('Failed to create post')).toBeTruthy();
    // the same post again: a second click while the first is in flight sends nothing more
    await userEvent.click(create);
    await waitFor(() => expect(keys).toHaveLength(2));
    fireEvent.click(create);
    fireEvent.submit(screen.getByRole('form', { name: 'New post' }));
    release();
    await waitFor(() => expect(currentPath()).toBe('/dashboard/my-post'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
