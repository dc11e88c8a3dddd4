// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { formatDateTime } from '../../../lib/format';
import { renderWithApp } from '../../../testing/render-with-app';
import { CommentForm } from './CommentForm';

afterEach(cleanup);

const BOB = { _id: 'u-2', handle: 'bob.chen', name: 'Bob Chen', photoURL: '' };

describe("#42.1 the comment form's @ autocomplete", () => {
  it('asks GET /api/users/handles?prefix= for the typed prefix and puts the chosen "@handle " in the comment', async () => {
    const prefixes: (string | null)[] = [];
    stubApi({
      'GET /api/users/handles': (request) => {
        prefixes.push(new URL(request.url).searchParams.get('prefix'));
        return { body: { users: [BOB] } };
      },
    });
    renderWithApp(<CommentForm postId="p-1" />, { path: '/post/p-1' });
    const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a comment' });
    await userEvent.type(field, 'thanks @bo');
    const list = await screen.findByRole('listbox', { name: 'Members to mention' });
    // the photo's letter is hidden: the option is named by the handle and the name
    expect(within(list).getAllByRole('option')).toEqual([within(list).getByRole('option', { name: '@bob.chen Bob Chen' })]);
    expect(prefixes.at(-1)).toBe('bo');
    await userEvent.keyboard('{Enter}');
    expect(field.value).toBe('thanks @bob.chen ');
  });

  it('offers nothing to a visitor and asks nothing', async () => {
    const { calls } = stubApi({});
    renderWithApp(<CommentForm postId="p-1" />, { path: '/post/p-1', user: null });
    const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a comment' });
    await userEvent.type(field, '@bo');
    expect(field.hasAttribute('aria-autocomplete')).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe('#43 a comment the server refuses for who writes or where', () => {
  const refusal = (status: number, code: string, message: string, details?: unknown) => ({
    status,
    body: { error: { code, message, details } },
  });

  it("a suspended member is told the banner's text, in their locale; a locked post's refusal says so", async () => {
    const until = '2026-12-02T14:00:00.000Z';
    let answer = refusal(403, 'MEMBER_SUSPENDED', `Your account is suspended until ${until}: Spam`, { reason: 'Spam', until });
    stubApi({ 'POST /api/comments': () => answer });
    renderWithApp(<CommentForm postId="p-1" />, { path: '/post/p-1' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await screen.findByText(`Your account is suspended until ${formatDateTime(until)}: Spam. You can still read the forum.`);

    answer = refusal(409, 'POST_LOCKED', 'This post is locked: no new comments can be added.');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await screen.findByText('This post is locked: no new comments can be added.');
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a comment' }).value).toBe('Hello');
  });
});
