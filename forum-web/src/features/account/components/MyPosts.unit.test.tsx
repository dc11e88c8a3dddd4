// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { BOB } from '../testing/fixtures';
import { MyPosts } from './MyPosts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '6f1c8a52-1111-4a4a-9a9a-000000000001';
const post = {
  _id: ID,
  title: 'Zero-downtime deploys',
  summary: 'Blue-green…',
  tags: ['DevOps', 'Databases'],
  authorName: 'Bob Chen',
  authorId: 'user-bob',
  authorPhoto: '',
  createdAt: '2026-11-20T09:30:00.000Z',
  upVote: 7,
  downVote: 2,
  commentCount: 3,
  revisionCount: 1,
};

const renderPage = () => renderWithApp(<MyPosts />, { path: '/dashboard/my-post', user: BOB });

describe('My Posts', () => {
  it('lists each post with its tags, votes, date and actions', async () => {
    stubApi({ 'GET /api/my-posts/bob%40forum.local': () => ({ body: [post] }) });
    renderPage();
    const table = await screen.findByRole('table', { name: 'My posts' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Post Title', 'Votes', 'Created At', 'Actions']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('#DevOps')).toBeTruthy();
    expect(row.textContent).toContain('7 up');
    expect(row.textContent).toContain('2 down');
    expect(within(row).getByRole('link', { name: 'View Zero-downtime deploys' }).getAttribute('href')).toBe(`/post/${ID}`);
    expect(within(row).getByRole('link', { name: 'Comments of Zero-downtime deploys' }).getAttribute('href')).toBe(`/post/${ID}#comments`);
  });

  it('says when the list is the newest of more posts than the API answers at once', async () => {
    stubApi({ 'GET /api/my-posts/bob%40forum.local': () => ({ body: [post], headers: { 'X-Total-Count': '150' } }) });
    renderPage();
    await screen.findByRole('table', { name: 'My posts' });
    expect(screen.getByText('Showing your newest 1 of 150 posts.')).toBeTruthy();
  });

  it('says nothing more when it has them all', async () => {
    stubApi({ 'GET /api/my-posts/bob%40forum.local': () => ({ body: [post], headers: { 'X-Total-Count': '1' } }) });
    renderPage();
    await screen.findByRole('table', { name: 'My posts' });
    expect(screen.queryByText(/Showing your newest/)).toBeNull();
  });

  it('shows an Add New Post link when there are no posts', async () => {
    stubApi({ 'GET /api/my-posts/bob%40forum.local': () => ({ body: [] }) });
    renderPage();
    expect((await screen.findByRole('link', { name: 'Add New Post' })).getAttribute('href')).toBe('/dashboard/add-post');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('deletes nothing when the confirmation is cancelled', async () => {
    const { calls } = stubApi({ 'GET /api/my-posts/bob%40forum.local': () => ({ body: [post] }) });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Zero-downtime deploys' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirm.textContent).toContain("You won't be able to revert this!");
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
  });

  it('deletes after Yes, delete it!, says Deleted! and the row goes away', async () => {
    let deleted = false;
    stubApi({
      'GET /api/my-posts/bob%40forum.local': () => ({ body: deleted ? [] : [post] }),
      [`DELETE /api/my-posts/${ID}`]: () => {
        deleted = true;
        return { body: { id: ID, position: '20.1' } };
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Zero-downtime deploys' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete it!' }));
    const done = await screen.findByRole('dialog', { name: 'Deleted!' });
    expect(done.textContent).toContain('Your post has been deleted.');
    expect(deleted).toBe(true);
    await userEvent.click(within(done).getByRole('button', { name: 'OK' }));
    expect(await screen.findByRole('link', { name: 'Add New Post' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says Failed to delete post when the server refuses', async () => {
    stubApi({
      'GET /api/my-posts/bob%40forum.local': () => ({ body: [post] }),
      [`DELETE /api/my-posts/${ID}`]: () => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'Not your post' } } }),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Zero-downtime deploys' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete it!' }));
    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(error.textContent).toContain('Failed to delete post');
    await userEvent.click(within(error).getByRole('button', { name: 'OK' }));
    expect(await screen.findByRole('table', { name: 'My posts' })).toBeTruthy();
  });
});
