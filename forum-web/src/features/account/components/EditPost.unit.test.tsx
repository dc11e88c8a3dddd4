// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimited, type Routes, stubApi } from '@forum/web-ui/testing';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import { BOB } from '../testing/fixtures';
import { EditPost } from './EditPost';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '6f1c8a52-1111-4a4a-9a9a-000000000007';
const post = (byMe: boolean) => ({
  _id: ID,
  title: 'Zero-downtime deploys',
  summary: '',
  description: 'Blue-green with a databse switch.',
  tags: ['DevOps'],
  authorName: BOB.name,
  authorId: BOB.id,
  authorPhoto: '',
  createdAt: '2026-11-20T09:30:00.000Z',
  upVote: 0,
  downVote: 0,
  commentCount: 0,
  revisionCount: 1,
  byMe,
});
const reads = (byMe = true): Routes => ({
  [`GET /api/posts/${ID}`]: () => ({ body: post(byMe) }),
  'GET /api/tags': () => ({ body: ['React', 'DevOps', 'Career'] }),
});
const renderPage = () => renderWithApp(<EditPost />, { path: `/dashboard/my-post/${ID}/edit`, route: '/dashboard/my-post/:id/edit', user: BOB });

describe('Edit Post: the post form in edit mode', () => {
  it('is prefilled with the post, sends only what changed with an Idempotency-Key, says so and goes back to the post', async () => {
    let sent: unknown;
    let key: string | null = null;
    stubApi({
      ...reads(),
      [`PATCH /api/posts/${ID}`]: async (request) => {
        sent = await request.json();
        key = request.headers.get('Idempotency-Key');
        return { body: { id: ID, position: '40.1' } };
      },
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Edit Post' })).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Edit post' });
    const title = screen.getByRole<HTMLInputElement>('textbox', { name: 'Post Title *' });
    const description = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Post Description *' });
    expect(title.value).toBe('Zero-downtime deploys');
    expect(description.value).toBe('Blue-green with a databse switch.');
    expect(form.textContent).toContain('#DevOps');
    await userEvent.clear(description);
    await userEvent.type(description, 'Blue-green with a database switch.');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(currentPath()).toBe(`/post/${ID}`));
    expect(sent).toEqual({ description: 'Blue-green with a database switch.' });
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(await screen.findByText('Your post has been updated.')).toBeTruthy();
  });

  it('sends nothing when nothing changed, and checks the fields by the create rules', async () => {
    const { calls } = stubApi(reads());
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Nothing has changed: there is nothing to save.')).toBeTruthy();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Post Title *' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Post Title *' }));
    expect(calls.filter((call) => call.startsWith('PATCH'))).toEqual([]);
  });

  it.each([
    [
      'the fields refused',
      () => ({ status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'Invalid', details: { title: ['Title is too spammy'] } } } }),
      ['Failed to update post', 'Title is too spammy'],
    ],
    ['a 429', () => rateLimited('Too many edits. Try again in 1 minute.', 51), ['Too many edits. Try again in 1 minute.']],
    ['a 404', () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such post' } } }), ['Post not found: it may have been deleted.']],
  ])('on %s says so and stays on the form', async (_case, answer, shown) => {
    stubApi({ ...reads(), [`PATCH /api/posts/${ID}`]: answer });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Post Title *' }), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    for (const text of shown) expect(await screen.findByText(text)).toBeTruthy();
    expect(currentPath()).toBe(`/dashboard/my-post/${ID}/edit`);
  });

  it("offers no form for someone else's post", async () => {
    stubApi(reads(false));
    renderPage();
    expect(await screen.findByText('Only its author can edit this post.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
  });
});
