// @vitest-environment jsdom
import type { ContactMessage } from '@forum/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { atPhoneWidth, renderConsole, respond, stubServer } from '../../testing/console';
import { ContactMessageList } from './ContactMessageList';
import { PREVIEW_CHARS } from './ExpandableText';

const LONG = `I would like to know ${'whether the forum could host a study group for our class, '.repeat(5)}and who to ask.`;
const MESSAGES: ContactMessage[] = [
  { _id: 'm-2', name: 'Nora Newest', email: 'nora@example.com', message: LONG, receivedAt: '2026-11-24T10:15:00.000Z' },
  { _id: 'm-1', name: 'Olaf Older', email: 'olaf@example.com', message: 'Hello there!', receivedAt: '2026-11-23T09:00:00.000Z' },
];

/** GET /api/admin/contact-messages (newest first, Content-Range), its `sort` and `range` recorded. */
function fakeServer(messages: ContactMessage[] = MESSAGES) {
  const queries: URLSearchParams[] = [];
  stubServer(({ url }) => {
    queries.push(url.searchParams);
    return respond(
      messages.map((m) => ({ id: m._id, ...m })),
      200,
      { 'Content-Range': `contact-messages ${messages.length ? `0-${messages.length - 1}` : '*'}/${messages.length}` },
    );
  });
  return { queries };
}

const renderInbox = () => renderConsole(<ContactMessageList />, { path: '/admin/contact-messages', resource: 'contact-messages' });

describe('Contact messages', () => {
  it('lists name, email, time received and message, newest first; a long message opens with Read more', async () => {
    const { queries } = fakeServer();
    renderInbox();
    const nora = (await screen.findByText('Nora Newest')).closest('tr')!;
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Email', 'Received', 'Message']);
    expect(JSON.parse(queries[0]!.get('sort')!)).toEqual(['receivedAt', 'DESC']);
    expect(within(nora).getByRole('link', { name: 'nora@example.com' }).getAttribute('href')).toBe('mailto:nora@example.com');
    expect(within(nora).getByText(new Date('2026-11-24T10:15:00.000Z').toLocaleDateString(), { exact: false })).toBeTruthy();
    expect(screen.getAllByRole('row').map((row) => row.querySelector('td')?.textContent ?? null)).toEqual([null, 'Nora Newest', 'Olaf Older']);

    // the long one: its start, then all of it
    expect(within(nora).queryByText(LONG)).toBeNull();
    expect(within(nora).getByText(`${LONG.slice(0, PREVIEW_CHARS).trimEnd()}…`)).toBeTruthy();
    const more = within(nora).getByRole('button', { name: 'Read more of the message from Nora Newest' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(more);
    expect(within(nora).getByText(LONG)).toBeTruthy();
    await userEvent.click(within(nora).getByRole('button', { name: 'Show less of the message from Nora Newest' }));
    expect(within(nora).queryByText(LONG)).toBeNull();

    // a short one has nothing to open
    const olaf = screen.getByText('Olaf Older').closest('tr')!;
    expect(within(olaf).getByText('Hello there!')).toBeTruthy();
    expect(within(olaf).queryByRole('button')).toBeNull();
  });

  it('says when there are no messages yet', async () => {
    fakeServer([]);
    renderInbox();
    expect(await screen.findByText('No contact messages yet')).toBeTruthy();
  });
});

describe('Contact messages on a phone', () => {
  it('shows each message as a card: name, email, time received and message, a long one with Read more', async () => {
    atPhoneWidth();
    fakeServer();
    renderInbox();
    const nora = await screen.findByRole('article', { name: 'Message from Nora Newest' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['Message from Nora Newest', 'Message from Olaf Older']);
    for (const label of ['Name', 'Email', 'Received', 'Message']) expect(within(nora).getByText(label)).toBeTruthy();
    expect(within(nora).getByText('Nora Newest')).toBeTruthy();
    expect(within(nora).getByRole('link', { name: 'nora@example.com' }).getAttribute('href')).toBe('mailto:nora@example.com');
    expect(within(nora).getByText(new Date('2026-11-24T10:15:00.000Z').toLocaleDateString(), { exact: false })).toBeTruthy();
    expect(within(nora).queryByText(LONG)).toBeNull();
    await userEvent.click(within(nora).getByRole('button', { name: 'Read more of the message from Nora Newest' }));
    expect(within(nora).getByText(LONG)).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Message from Olaf Older' })).queryByRole('button')).toBeNull();
  });
});
