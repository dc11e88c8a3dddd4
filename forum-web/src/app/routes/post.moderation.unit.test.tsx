// @vitest-environment jsdom
import type { CommentItem, PostDetail } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { commentPage } from '../../features/comments/testing/comment-pages';
import { formatDateTime } from '../../lib/format';
import { postItem } from '../../testing/post-items';
import { ALICE, renderWithApp } from '../../testing/render-with-app';
import { PostPage } from './post';

afterEach(cleanup);

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const HIDDEN_AT = '2026-11-28T09:30:00.000Z';
const post = (changes: Partial<PostDetail> = {}): PostDetail => ({ ...postItem(POST_ID, 'Deploys', ['DevOps']), description: 'What it is about.', ...changes });
const comment = (changes: Partial<CommentItem> = {}): CommentItem => ({
  _id: 'c1',
  postId: POST_ID,
  text: 'A comment',
  authorName: 'Bob Chen',
  authorId: 'u-bob',
  authorPhoto: '',
  createdAt: '2026-11-23T18:00:00.000Z',
  revisionCount: 1,
  ...changes,
});

/** The post page over a server that has `detail`, its `comments` and Alice as `role`; the post reports it was sent. */
function showPost(detail: PostDetail, { comments = [] as CommentItem[], role = 'user' } = {}) {
  const reports: unknown[] = [];
  stubApi({
    [`GET /api/posts/${POST_ID}`]: () => ({ body: detail }),
    [`GET /api/posts/${POST_ID}/comments`]: (request) => ({ body: commentPage(comments, request, 20) }),
    [`GET /api/posts/${POST_ID}/follow`]: () => ({ body: { following: false } }),
    'GET /api/me': () => ({
      body: {
        _id: ALICE.id,
        name: ALICE.name,
        email: ALICE.email,
        photoURL: '',
        handle: 'alice',
        role,
        isMember: false,
        registeredAt: '2026-11-01T10:00:00.000Z',
      },
    }),
    [`POST /api/posts/${POST_ID}/report`]: async (request) => {
      reports.push(await request.json());
      return { status: 201, body: { id: POST_ID, position: '40.1' } };
    },
  });
  renderWithApp(<PostPage />, { path: `/post/${POST_ID}`, route: '/post/:id' });
  return { reports };
}

describe('#43 the post page: what staff did, and reporting a post', () => {
  it('its author sees a hidden post with the reason, and their hidden comment marked', async () => {
    showPost(post({ byMe: true, hidden: { reason: 'Off topic', hiddenAt: HIDDEN_AT } }), {
      comments: [comment({ byMe: true, hidden: { reason: 'Rude.', hiddenAt: HIDDEN_AT } })],
    });
    const alert = (await screen.findByText(/A moderator hid your post/)).closest('[role="alert"]');
    expect(alert?.textContent).toBe(`A moderator hid your post on ${formatDateTime(HIDDEN_AT)}Reason: Off topic. Only you and the moderators can see it.`);
    const list = await screen.findByRole('list', { name: 'Comments' });
    expect(
      within(list)
        .getByText(/A moderator hid your comment/)
        .closest('[role="alert"]')?.textContent,
    ).toContain('Reason: Rude. Only you');
    // no report of one's own post
    expect(screen.queryByRole('button', { name: 'Report this post' })).toBeNull();
    // nobody comments on a hidden post but staff: its author has no form, and is told why
    await screen.findByText('While this post is hidden, only moderators can comment on it.');
    expect(screen.queryByRole('textbox', { name: 'Write a comment' })).toBeNull();
    cleanup();

    showPost(post({ byMe: false, hidden: { reason: 'Off topic', hiddenAt: HIDDEN_AT } }), { role: 'moderator' });
    expect(await screen.findByRole('textbox', { name: 'Write a comment' })).toBeTruthy();
  });

  it('a locked post is marked, says why, and offers members no comment form; staff keep it', async () => {
    showPost(post({ locked: true, lockReason: 'Settled' }));
    expect(await screen.findByText('Locked')).toBeTruthy();
    await screen.findByText('This post is locked: no new comments can be added. Reason: Settled.');
    expect(screen.queryByRole('textbox', { name: 'Write a comment' })).toBeNull();
    cleanup();

    showPost(post({ locked: true, pinned: true }), { role: 'moderator' });
    expect(await screen.findByText('Pinned')).toBeTruthy();
    await screen.findByText(/This post is locked: no new comments can be added\. As staff, you can still comment\./);
    expect(await screen.findByRole('textbox', { name: 'Write a comment' })).toBeTruthy();
  });

  it('a member reports a post with a feedback choice, then it says Reported; a post reported before says so at once', async () => {
    const { reports } = showPost(post({ byMe: false, reportedByMe: false }));
    const report = await screen.findByRole<HTMLButtonElement>('button', { name: 'Report this post' });
    expect(report.disabled).toBe(true);
    await userEvent.click(screen.getByRole('combobox', { name: 'Feedback on this post' }));
    await userEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'This is spam' }));
    await userEvent.click(report);
    await screen.findByText('Reported! Your report has been submitted');
    expect(reports).toEqual([{ feedback: 'spam' }]);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Reported'));
    expect(screen.queryByRole('button', { name: 'Report this post' })).toBeNull();
    cleanup();

    showPost(post({ byMe: false, reportedByMe: true }));
    await screen.findByText('Reported');
    expect(screen.queryByRole('button', { name: 'Report this post' })).toBeNull();
  });
});
