// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
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
