// @vitest-environment jsdom
import type { WarningItem } from '@forum/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import NotificationPanel from './NotificationPanel';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const warning = (changes: Partial<WarningItem>): WarningItem => ({
  _id: 'w1',
  kind: 'warning',
  link: '/dashboard/notifications',
  reason: 'Please stay polite',
  createdAt: '2026-11-23T18:00:00.000Z',
  read: false,
  ...changes,
});

afterEach(cleanup);

function renderPanel(warnings: WarningItem[]) {
  const onClose = vi.fn();
  renderWithApp(<NotificationPanel id="panel" anchor={document.body} onClose={onClose} items={warnings} announcements={[]} fresh={new Set()} />, {
    route: '*',
  });
  return { onClose, list: within(screen.getByRole('list', { name: 'Notifications' })) };
}

describe('the notification panel', () => {
  it('#28.6 a warning about a comment names its post (linked) and quotes the comment; once the post is gone it says so', async () => {
    const { onClose, list } = renderPanel([
      warning({ commentId: 'c1', postId: POST_ID, postTitle: 'Zero-downtime deploys', commentQuote: 'You are all wrong about this...' }),
      warning({ _id: 'w2', commentId: 'c2', postId: '00000000-0000-4000-8000-000000000000', commentQuote: 'Buy my stuff' }),
      warning({ _id: 'w3', reason: 'Mind the rules' }),
    ]);
    const [about, gone, plain] = list.getAllByRole('listitem');

    within(about!).getByText('Please stay polite', { exact: false });
    within(about!).getByText('“You are all wrong about this...”');
    const post = within(about!).getByRole('link', { name: 'Zero-downtime deploys' });
    expect(post.getAttribute('href')).toBe(`/post/${POST_ID}`);

    within(gone!).getByText('“Buy my stuff”');
    within(gone!).getByText(/a post that was deleted/);
    expect(within(gone!).queryByRole('link')).toBeNull();

    expect(within(plain!).queryByText(/your comment/i)).toBeNull();

    await userEvent.click(post);
    expect(currentPath()).toBe(`/post/${POST_ID}`);
    expect(onClose).toHaveBeenCalled();
  });

  it('#39 edge 22: a warning\'s date is a line of its own below its reason, not " · date" after it', () => {
    const { list } = renderPanel([warning({ reason: 'Please stay polite in the comments of this forum, every one of them' })]);
    const item = list.getByRole('listitem');
    within(item).getByText('Please stay polite in the comments of this forum, every one of them', { exact: true });
    expect(item.textContent).not.toContain('·');
    const date = item.querySelector('time');
    expect(date?.getAttribute('datetime')).toBe('2026-11-23T18:00:00.000Z');
    expect(getComputedStyle(date!.parentElement!).display).toBe('block');
    expect(date!.parentElement!.textContent).toBe(date!.textContent);
  });

  it("#39 edge 22: an announcement's author and date are a line of their own below its text, as a warning's date", async () => {
    const announcement = {
      _id: 'a1',
      title: 'Maintenance',
      description: 'The forum rests on Sunday night, for an hour or so',
      authorName: 'Ada Admin',
      authorPhoto: '',
      date: '2026-11-29T09:00:00.000Z',
    };
    renderWithApp(<NotificationPanel id="panel" anchor={document.body} onClose={() => {}} items={null} announcements={[announcement]} fresh={new Set()} />, {
      route: '*',
    });
    const item = within(screen.getByRole('list', { name: 'Notifications' })).getByRole('listitem');
    await within(item).findByText('The forum rests on Sunday night, for an hour or so', { exact: true });
    expect(item.textContent).not.toContain('·');
    const date = item.querySelector('time');
    expect(date?.getAttribute('datetime')).toBe('2026-11-29T09:00:00.000Z');
    expect(getComputedStyle(date!.parentElement!).display).toBe('block');
    expect(date!.parentElement!.textContent).toMatch(/^Ada Admin, /);
  });
});
