// @vitest-environment jsdom
import { COMMENT_MAX, DELETED_USER_NAME, type CommentItem } from '@forum/contracts';
import type { AuthUser } from '@forum/web-auth';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { descriptionOf, n, rateLimited, stubApi } from '@forum/web-ui/testing';
import { ALICE, currentPath, renderWithApp } from '../../../testing/render-with-app';
import { commentPage, shownStatus } from '../testing/comment-pages';
import { PostComments } from './PostComments';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const TOO_MANY = 'Too many comments. Try again in 2 minutes.';
const first: CommentItem = {
  _id: 'c1',
  postId: POST_ID,
  text: 'First!',
  authorName: 'Bob Chen',
  authorId: 'u-bob',
  authorPhoto: '',
  createdAt: '2026-11-23T18:00:00.000Z',
  revisionCount: 1,
};

/** Comments newest first, `pageSize` a page. */
function fakeServer({ addStatus = 201, list = [first], pageSize = 20 }: { addStatus?: number; list?: CommentItem[]; pageSize?: number } = {}) {
  const added: unknown[] = [];
  stubApi({
    [`GET /api/posts/${POST_ID}/comments`]: (request) => ({ body: commentPage(list, request, pageSize) }),
    'POST /api/comments': async (request) => {
      const body = (await request.json()) as { text: string };
      added.push(body);
      if (addStatus === 429) return rateLimited(TOO_MANY, 95);
      if (addStatus !== 201) return { status: addStatus, body: { error: { code: 'INTERNAL', message: 'boom' } } };
      list.unshift({ ...first, _id: 'c2', text: body.text, authorName: 'Alice' });
      return { status: 201, body: { id: 'c2', position: '902.1' } };
    },
  });
  return { added };
}

const renderComments = (user: AuthUser | null = ALICE) =>
  renderWithApp(<PostComments postId={POST_ID} />, { user, path: `/post/${POST_ID}`, route: '/post/:id' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the comments under a post', () => {
  it("links each author's name to their public profile; an erased author's name is plain text", async () => {
    const erased: CommentItem = { ...first, _id: 'c0', text: 'Old words', authorName: DELETED_USER_NAME, authorId: null };
    fakeServer({ list: [first, erased] });
    renderComments();
    const list = await screen.findByRole('list', { name: 'Comments' });
    await within(list).findByText('Old words');
    expect(within(list).queryByRole('link', { name: DELETED_USER_NAME })).toBeNull();
    within(list).getByText(DELETED_USER_NAME);
    await userEvent.click(within(list).getByRole('link', { name: 'Bob Chen' }));
    await waitFor(() => expect(currentPath()).toBe('/u/u-bob'));
  });

  it('posts a comment: the list shows it after the server accepted it, and the input clears', async () => {
    const { added } = fakeServer();
    renderComments();
    const list = await screen.findByRole('list', { name: 'Comments' });
    await within(list).findByText('First!');

    const input = screen.getByRole('textbox', { name: 'Write a comment' });
    expect(input.getAttribute('placeholder')).toBe('Write a comment...');
    await userEvent.type(input, '  Thanks, this helped  ');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));

    await within(list).findByText('Thanks, this helped');
    expect(added).toEqual([{ postId: POST_ID, text: 'Thanks, this helped' }]);
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it("shows the newest comments first, and 'Show more comments' adds the next page below them, saying how many are shown", async () => {
    const list = Array.from({ length: 5 }, (_, i) => ({ ...first, _id: `c${5 - i}`, text: `Comment ${5 - i}` }));
    fakeServer({ list, pageSize: 2 });
    renderComments(null);
    const comments = await screen.findByRole('list', { name: 'Comments' });
    // each comment's Markdown shows once the renderer's chunk is in
    await within(comments).findByText('Comment 5');
    const texts = () =>
      within(comments)
        .getAllByRole('listitem')
        .map((item) => within(item).getByText(/^Comment \d$/).textContent);
    expect(texts()).toEqual(['Comment 5', 'Comment 4']);
    expect(shownStatus()?.textContent).toBe('Showing 2 of 5 comments');

    await userEvent.click(screen.getByRole('button', { name: 'Show more comments' }));
    await waitFor(() => expect(texts()).toEqual(['Comment 5', 'Comment 4', 'Comment 3', 'Comment 2']));
    expect(shownStatus()?.textContent).toBe('Showing 4 of 5 comments');

    // from the keyboard; when the last page has come the button goes and the focus moves to the status
    screen.getByRole('button', { name: 'Show more comments' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(texts()).toEqual(['Comment 5', 'Comment 4', 'Comment 3', 'Comment 2', 'Comment 1']));
    expect(screen.queryByRole('button', { name: 'Show more comments' })).toBeNull();
    expect(shownStatus()?.textContent).toBe('Showing all 5 comments');
    expect(document.activeElement).toBe(shownStatus());
  });

  it('puts a new comment first, keeping the pages already shown', async () => {
    const list = Array.from({ length: 3 }, (_, i) => ({ ...first, _id: `c${3 - i}`, text: `Comment ${3 - i}` }));
    fakeServer({ list, pageSize: 2 });
    renderComments();
    const comments = await screen.findByRole('list', { name: 'Comments' });
    await userEvent.click(screen.getByRole('button', { name: 'Show more comments' }));
    await within(comments).findByText('Comment 1');
    await userEvent.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'Newest');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() =>
      expect(
        within(comments)
          .getAllByRole('listitem')
          .map((item) => item.querySelector('p')?.textContent),
      ).toEqual(['Newest', 'Comment 3', 'Comment 2', 'Comment 1']),
    );
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
    renderComments(null);
    await screen.findByRole('list', { name: 'Comments' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Login to comment' }).getAttribute('href')).toBe('/joinUs');
    expect(screen.getByRole('link', { name: 'View and report comments' }).getAttribute('href')).toBe(`/post/${POST_ID}/comments`);
    await waitFor(() => expect(document.getElementById('comments')).not.toBeNull());
  });
});

describe('a link to one comment (#comment-<id>, where a notification leads)', () => {
  it('reads the pages until the comment is there, scrolls to it, gives it focus and marks it out', async () => {
    const list = Array.from({ length: 5 }, (_, i) => ({ ...first, _id: `c${5 - i}`, text: `Comment ${5 - i}` }));
    fakeServer({ list, pageSize: 2 });
    const scrolled: string[] = [];
    // jsdom lays nothing out and has no scrollIntoView: each call is recorded
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    onTestFinished(() => void delete (Element.prototype as Partial<Element>).scrollIntoView);
    renderWithApp(<PostComments postId={POST_ID} />, { user: ALICE, path: `/post/${POST_ID}#comment-c1`, route: '/post/:id' });
    const comments = await screen.findByRole('list', { name: 'Comments' });
    const target = (await within(comments).findByText('Comment 1')).closest('li')!;
    await waitFor(() => expect(document.activeElement).toBe(target));
    expect(target.id).toBe('comment-c1');
    expect(target.getAttribute('aria-current')).toBe('location');
    expect(scrolled).toEqual(['comment-c1']);
    expect(
      within(comments)
        .getAllByRole('listitem')
        .filter((item) => item.getAttribute('aria-current')),
    ).toHaveLength(1);
  });
});
