// @vitest-environment jsdom
import type { CommentItem } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeRequest, json, renderWithApp } from '../../../testing/render-with-app';
import { PostComments } from './PostComments';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const TOO_MANY = 'Too many comments. Try again in 2 minutes.';
const first: CommentItem = { _id: 'c1', postId: POST_ID, text: 'First!', authorName: 'Bob Chen', authorPhoto: '', createdAt: '2026-11-23T18:00:00.000Z' };

function fakeServer({ addStatus = 201 }: { addStatus?: number } = {}) {
  const list = [first];
  const added: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { method, path } = describeRequest(input, init);
      if (method === 'GET' && path === `/comments/${POST_ID}`) return json(list);
      if (method === 'POST' && path === '/comments') {
        const body = (await (input as Request).clone().json()) as { text: string };
        added.push(body);
        if (addStatus === 429) return json({ error: { code: 'RATE_LIMITED', message: TOO_MANY, details: { retryAfterSeconds: 95 } } }, 429, { 'Retry-After': '95' });
        if (addStatus !== 201) return json({ error: { code: 'INTERNAL', message: 'boom' } }, addStatus);
        list.push({ ...first, _id: 'c2', text: body.text, authorName: 'Alice' });
        return json({ id: 'c2', position: '902.1' }, 201);
      }
      return json({ error: { code: 'NOT_FOUND', message: 'no' } }, 404);
    }),
  );
  return { added };
}

const renderComments = (signedIn = true) => renderWithApp(<PostComments postId={POST_ID} />, { signedIn, path: `/post/${POST_ID}`, route: '/post/:id' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the comments under a post', () => {
  it('posts a comment: the list shows it after the server accepted it, and the input clears', async () => {
    const { added } = fakeServer();
    renderComments();
    const list = await screen.findByRole('list', { name: 'Comments' });
    within(list).getByText('First!');

    const input = screen.getByRole('textbox', { name: 'Write a comment' });
    expect(input.getAttribute('placeholder')).toBe('Write a comment...');
    await userEvent.type(input, '  Thanks, this helped  ');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));

    await within(list).findByText('Thanks, this helped');
    expect(added).toEqual([{ postId: POST_ID, text: 'Thanks, this helped' }]);
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('ignores a comment that is empty after trimming', async () => {
    const { added } = fakeServer();
    renderComments();
    await screen.findByRole('list', { name: 'Comments' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), '    ');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(added).toEqual([]);
  });

  it.each([
    [500, 'Failed to post comment'],
    // over the comment limit: the server's message says when to try again
    [429, TOO_MANY],
  ])('when posting fails with %i, toasts "%s" and keeps the text', async (status, toast) => {
    fakeServer({ addStatus: status });
    renderComments();
    await screen.findByRole('list', { name: 'Comments' });
    const input = screen.getByRole('textbox', { name: 'Write a comment' });
    await userEvent.type(input, 'Lost?');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await screen.findByText(toast);
    expect((input as HTMLTextAreaElement).value).toBe('Lost?');
  });

  it("gives visitors a 'Login to comment' link instead of the form, and every reader the link to the comments page", async () => {
    fakeServer();
    renderComments(false);
    await screen.findByRole('list', { name: 'Comments' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Login to comment' }).getAttribute('href')).toBe('/joinUs');
    expect(screen.getByRole('link', { name: 'View and report comments' }).getAttribute('href')).toBe(`/post/${POST_ID}/comments`);
    await waitFor(() => expect(document.getElementById('comments')).not.toBeNull());
  });
});
