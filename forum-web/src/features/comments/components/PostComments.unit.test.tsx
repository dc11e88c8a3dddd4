// @vitest-environment jsdom
import { COMMENT_MAX, type CommentItem } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeRequest, descriptionOf, json, renderWithApp } from '../../../testing/render-with-app';
import { PostComments } from './PostComments';

/** A number as the counters write it (19,990). */
const n = (value: number) => value.toLocaleString('en-US');

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
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

  it(`counts the comment against ${COMMENT_MAX} characters; over the limit the field is in error and nothing is sent`, async () => {
    const { added } = fakeServer();
    renderComments();
    await screen.findByRole('list', { name: 'Comments' });
    const input = screen.getByRole('textbox', { name: 'Write a comment' });
    expect(descriptionOf(input)).toBe(`${n(COMMENT_MAX)} characters left (0 of ${n(COMMENT_MAX)})`);
    await userEvent.click(input);
    await userEvent.paste('x'.repeat(COMMENT_MAX + 2));
    expect(descriptionOf(input)).toBe(`2 characters too many (the most is ${n(COMMENT_MAX)})`);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(added).toEqual([]);
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

  it("toasts 'Failed to post comment' and keeps the text when posting fails", async () => {
    fakeServer({ addStatus: 500 });
    renderComments();
    await screen.findByRole('list', { name: 'Comments' });
    const input = screen.getByRole('textbox', { name: 'Write a comment' });
    await userEvent.type(input, 'Lost?');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await screen.findByText('Failed to post comment');
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
