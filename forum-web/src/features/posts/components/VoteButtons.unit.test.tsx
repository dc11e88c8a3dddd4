// @vitest-environment jsdom
import type { PostDetail } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimited, stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { PostDetails } from './PostDetails';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const post = (changes: Partial<PostDetail> = {}): PostDetail => ({
  _id: POST_ID,
  title: 'Zero-downtime deploys',
  summary: 'Blue-green...',
  description: 'Blue-green with two processes behind nginx works.',
  tags: ['DevOps'],
  authorName: 'Bob Chen',
  authorId: 'u-bob',
  authorPhoto: '',
  createdAt: '2026-11-23T18:58:54.361Z',
  upVote: 3,
  downVote: 1,
  commentCount: 2,
  revisionCount: 1,
  myVote: 'none',
  ...changes,
});

/** A server whose vote answer waits until the test releases it. */
function fakeServer({ initial, afterVote, voteStatus = 200 }: { initial: PostDetail; afterVote: PostDetail; voteStatus?: number }) {
  let current = initial;
  let release: () => void = () => {};
  const votes: unknown[] = [];
  stubApi({
    [`GET /api/posts/${POST_ID}`]: () => ({ body: current }),
    [`PUT /api/posts/${POST_ID}/vote`]: async (request) => {
      votes.push(await request.clone().json());
      await new Promise<void>((resolve) => (release = resolve));
      if (voteStatus === 429) return rateLimited('Too many votes. Try again in 40 seconds.', 40);
      if (voteStatus !== 200) return { status: voteStatus, body: { error: { code: 'INTERNAL', message: 'boom' } } };
      current = afterVote;
      return { body: { id: POST_ID, vote: afterVote.myVote, position: '900.1' } };
    },
  });
  return { votes, release: () => release() };
}

const group = () => screen.getByRole('group', { name: 'Vote on this post' });
const like = () => within(group()).getByRole('button', { name: /^Like/ });
const dislike = () => within(group()).getByRole('button', { name: /^Dislike/ });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the vote buttons of a post', () => {
  it('sends the like, keeps both buttons disabled (focusable, ignoring clicks) and the counts unchanged until the server answers, then shows the new counts', async () => {
    const server = fakeServer({ initial: post(), afterVote: post({ upVote: 4, myVote: 'up' }) });
    renderWithApp(<PostDetails id={POST_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Like 3' }));

    await waitFor(() => expect(server.votes).toEqual([{ vote: 'up' }]));
    expect(like().getAttribute('aria-disabled')).toBe('true');
    expect(dislike().getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(dislike());
    within(group()).getByRole('button', { name: 'Like 3' });

    server.release();
    await within(group()).findByRole('button', { name: 'Like 4' });
    expect(like().getAttribute('aria-disabled')).toBeNull();
    expect(like().getAttribute('aria-pressed')).toBe('true');
    within(group()).getByRole('button', { name: 'Dislike 1' });
    expect(server.votes).toEqual([{ vote: 'up' }]);
  });

  it('switches a dislike to a like with one request', async () => {
    const server = fakeServer({ initial: post({ myVote: 'down' }), afterVote: post({ upVote: 4, downVote: 0, myVote: 'up' }) });
    renderWithApp(<PostDetails id={POST_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Like 3' }));
    server.release();
    await within(group()).findByRole('button', { name: 'Dislike 0' });
    within(group()).getByRole('button', { name: 'Like 4' });
    expect(server.votes).toEqual([{ vote: 'up' }]);
  });

  it('undoes a like when liked again', async () => {
    const server = fakeServer({ initial: post({ myVote: 'up' }), afterVote: post({ upVote: 2, myVote: 'none' }) });
    renderWithApp(<PostDetails id={POST_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Like 3' }));
    server.release();
    await within(group()).findByRole('button', { name: 'Like 2' });
    expect(server.votes).toEqual([{ vote: 'none' }]);
    expect(like().getAttribute('aria-pressed')).toBe('false');
  });

  it.each([
    [500, 'Failed to register your vote'],
    // over the vote limit: the server's message says when to try again
    [429, 'Too many votes. Try again in 40 seconds.'],
  ])('when the vote fails with %i, says "%s" in an Error dialog and leaves the counts', async (status, message) => {
    const server = fakeServer({ initial: post(), afterVote: post(), voteStatus: status });
    renderWithApp(<PostDetails id={POST_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Dislike 1' }));
    server.release();

    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    within(dialog).getByText(message);
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(dislike().getAttribute('aria-disabled')).toBeNull());
    within(group()).getByRole('button', { name: 'Dislike 1' });
    within(group()).getByRole('button', { name: 'Like 3' });
  });

  it("#28.2 on the reader's own post shows the counts and why there is nothing to vote with, and sends no vote", async () => {
    const server = fakeServer({ initial: post({ byMe: true }), afterVote: post() });
    renderWithApp(<PostDetails id={POST_ID} />);
    const votes = await screen.findByRole('group', { name: 'Votes on your post' });
    within(votes).getByText('3 likes');
    within(votes).getByText('1 dislike');
    within(votes).getByText('You cannot vote on your own post.');
    expect(screen.queryByRole('group', { name: 'Vote on this post' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^(Like|Dislike)/ })).toBeNull();
    expect(server.votes).toEqual([]);
  });

  it('asks a visitor to sign in instead of voting, and signs in when they agree', async () => {
    const server = fakeServer({ initial: post({ myVote: undefined }), afterVote: post() });
    const { login } = renderWithApp(<PostDetails id={POST_ID} />, { user: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Like 3' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign in to vote' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect(login).toHaveBeenCalledTimes(1);
    expect(server.votes).toEqual([]);
  });
});
