// @vitest-environment jsdom
import { AUDIT_EMPTY_SPAN, type AuditEntry } from '@forum/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '@forum/web-ui/testing';
import { atPhoneWidth, quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { AuditList } from './AuditList';
import { endOfLocalDay, localDay, startOfLocalDay } from './dateBounds';

const ADA = { id: 'u-ada', name: 'Ada Admin', email: 'admin@forum.local' };
const OPERATOR = { id: 'operator:root', name: 'operator:root', email: '' };
const POST_ID = '6f1c2f9e-2b7a-4c1e-9a63-2f0f8d7c6b5a';

const ENTRIES: AuditEntry[] = [
  { _id: '40', at: '2026-11-24T10:15:00.000Z', actor: ADA, type: 'PostDeleted', target: { type: 'post', id: POST_ID }, summary: 'Deleted a post by Ben' },
  { _id: '30', at: '2026-11-23T09:00:00.000Z', actor: ADA, type: 'TagCreated', target: { type: 'tag', id: 't-1' }, summary: 'Created the tag #Rust' },
  {
    _id: '20',
    at: '2026-11-22T18:30:00.000Z',
    actor: OPERATOR,
    type: 'AdminRoleGranted',
    target: { type: 'user', id: 'u-ann' },
    summary: 'Made Ann Author an admin',
  },
];

type Filter = { actor?: string; type?: string; since?: string; until?: string };

/** GET /api/admin/audit as react-admin reads it: `filter` (actor, type, since, until) narrows the entries, newest first. */
function fakeServer(entries: AuditEntry[] = ENTRIES) {
  const filters: Filter[] = [];
  stubServer(({ url }) => {
    if (url.pathname !== '/api/admin/audit') return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
    const filter = JSON.parse(url.searchParams.get('filter') ?? '{}') as Filter;
    filters.push(filter);
    // the API's refusal of an empty span (contracts' AuditFilter)
    if (filter.since && filter.until && filter.since > filter.until) {
      return respond({ error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { until: [AUDIT_EMPTY_SPAN] } } }, 400);
    }
    const found = entries.filter(
      (e) =>
        (!filter.type || e.type === filter.type) &&
        (!filter.actor || e.actor.id === filter.actor || e.actor.email === filter.actor) &&
        (!filter.since || e.at >= filter.since) &&
        (!filter.until || e.at <= filter.until),
    );
    return respond(
      found.map((e) => ({ id: e._id, ...e })),
      200,
      { 'Content-Range': `audit ${found.length ? `0-${found.length - 1}` : '*'}/${found.length}` },
    );
  });
  return { filters };
}

const renderAudit = () => renderConsole(<AuditList />, { path: '/admin/audit', resource: 'audit' });
const rowOf = async (summary: string) => (await screen.findByText(summary, { exact: true })).closest('tr')!;

describe('Staff actions (the audit log)', () => {
  it('lists each action with its time, actor, type, target and summary; users and posts link to their history', async () => {
    fakeServer();
    renderAudit();
    const deleted = await rowOf('Deleted a post by Ben');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Time', 'Actor', 'Type', 'Target', 'Summary']);
    expect(within(deleted).getByText('Post deleted')).toBeTruthy();
    expect(within(deleted).getByText('admin@forum.local')).toBeTruthy();
    expect(within(deleted).getByRole('link', { name: 'Ada Admin' }).getAttribute('href')).toBe('/admin/history/user/u-ada');
    expect(
      within(deleted)
        .getByRole('link', { name: `History of post ${POST_ID}` })
        .getAttribute('href'),
    ).toBe(`/admin/history/post/${POST_ID}`);
    expect(within(deleted).getByText(new Date('2026-11-24T10:15:00.000Z').toLocaleDateString(), { exact: false })).toBeTruthy();

    const tag = await rowOf('Created the tag #Rust');
    expect(within(tag).getByText('Tag created')).toBeTruthy();
    expect(within(tag).queryByRole('link', { name: /^History of/ })).toBeNull(); // tags have no history page

    const grant = await rowOf('Made Ann Author an admin');
    expect(within(grant).getByRole('link', { name: 'History of user u-ann' }).getAttribute('href')).toBe('/admin/history/user/u-ann');
    // the operator is no user of the forum: no link
    expect(within(grant).queryByRole('link', { name: 'operator:root' })).toBeNull();
    expect(within(grant).getByText('operator:root')).toBeTruthy();
  });

  it('filters by type with a select of the audit types', async () => {
    const { filters } = fakeServer();
    renderAudit();
    await rowOf('Created the tag #Rust');
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    const options = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'All types',
      'Made admin',
      'Tag created',
      'Tag deleted',
      'Announcement published',
      'Comment removed',
      'User warned',
      'Post deleted',
      'Projection rebuild',
      'Account erased',
      'Account disabled',
      'Account enabled',
      'Post edited',
      'Comment edited',
      'Made moderator',
      'Moderator role taken back',
      'Member suspended',
      'Suspension lifted',
      'Reports dismissed',
      'Post hidden',
      'Post shown again',
      'Comment hidden',
      'Comment shown again',
      'Post locked',
      'Post unlocked',
      'Post pinned',
      'Post unpinned',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Tag created' }));
    await waitFor(() => expect(screen.queryByText('Deleted a post by Ben')).toBeNull());
    expect(screen.getByText('Created the tag #Rust')).toBeTruthy();
    expect(filters.at(-1)).toEqual({ type: 'TagCreated' });
  });

  it('filters by actor (an email or an id)', async () => {
    const { filters } = fakeServer();
    renderAudit();
    await rowOf('Created the tag #Rust');
    await userEvent.type(screen.getByRole('textbox', { name: 'Actor (email or id)' }), 'admin@forum.local');
    await waitFor(() => expect(screen.queryByText('Made Ann Author an admin')).toBeNull());
    expect(filters.at(-1)).toEqual({ actor: 'admin@forum.local' });
    expect(screen.getByText('Deleted a post by Ben')).toBeTruthy();
  });

  it('filters by date: From and To are whole days where the admin is, sent as the instants they start and end', async () => {
    const { filters } = fakeServer();
    renderAudit();
    await rowOf('Created the tag #Rust');
    const from = screen.getByLabelText<HTMLInputElement>('From');
    const to = screen.getByLabelText<HTMLInputElement>('To');
    const day = localDay('2026-11-23T09:00:00.000Z');
    fireEvent.change(from, { target: { value: day } });
    fireEvent.blur(from);
    fireEvent.change(to, { target: { value: day } });
    fireEvent.blur(to);
    await waitFor(() => expect(filters.at(-1)).toEqual({ since: startOfLocalDay(day), until: endOfLocalDay(day) }));
    await waitFor(() => expect(screen.queryByText('Deleted a post by Ben')).toBeNull());
    expect(screen.getByText('Created the tag #Rust')).toBeTruthy();
    expect(screen.queryByText('Made Ann Author an admin')).toBeNull();
    // the inputs still show the days picked
    expect(from.value).toBe(day);
    expect(to.value).toBe(day);
  });
});

describe('Staff actions, a From after To (#39 edge 6)', () => {
  /** A day picked in a date field, as the browser sends it: a change, then the focus leaves (one event at a time). */
  const pick = async (label: 'From' | 'To', day: string) => {
    const input = screen.getByLabelText<HTMLInputElement>(label);
    await act(() => {
      fireEvent.change(input, { target: { value: day } });
      return Promise.resolve();
    });
    await act(() => {
      fireEvent.blur(input);
      return Promise.resolve();
    });
  };
  /** What the pager says ('1-3 of 3'), or null when it shows no count. */
  const pagerCount = () => screen.queryByText(/^\d+-\d+ of \d+$/)?.textContent ?? null;

  it('says so on To and sends no such filter; the list and its pager stay as they were', async () => {
    const { filters } = fakeServer();
    renderAudit();
    await rowOf('Created the tag #Rust');
    expect(pagerCount()).toBe('1-3 of 3');
    await pick('To', '2026-11-22');
    await pick('From', '2026-11-24');
    const to = screen.getByLabelText('To');
    await waitFor(() => expect(descriptionOf(to)).toBe('To must not be before From'));
    expect(to.getAttribute('aria-invalid')).toBe('true');
    for (const toast of ['Bad Request', 'Server communication error']) expect(screen.queryByText(toast)).toBeNull();
    expect(screen.getByText('Deleted a post by Ben')).toBeTruthy();
    expect(pagerCount()).toBe('1-3 of 3');

    // a To on or after From: the message goes and the filter is sent; none was sent with To before From
    await pick('To', '2026-11-24');
    await waitFor(() => expect(filters.at(-1)).toEqual({ since: startOfLocalDay('2026-11-24'), until: endOfLocalDay('2026-11-24') }));
    expect(filters.filter((filter) => filter.since && filter.until && filter.since > filter.until)).toEqual([]);
    expect(descriptionOf(screen.getByLabelText('To'))).toBeFalsy();
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('false');
  });

  it("says in the page why the server refused the filter (an address with From after To), with no 'Bad Request' toast and no pager count", async () => {
    quietHttpErrors();
    fakeServer();
    const filter = JSON.stringify({ since: startOfLocalDay('2026-11-24'), until: endOfLocalDay('2026-11-22') });
    renderConsole(<AuditList />, { path: `/admin/audit?filter=${encodeURIComponent(filter)}`, resource: 'audit' });
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toBe('To must not be before FromClear filters');
    expect(descriptionOf(screen.getByLabelText('To'))).toBe('To must not be before From');
    for (const toast of ['Bad Request', 'Server communication error']) expect(screen.queryByText(toast)).toBeNull();
    expect(screen.queryByText('No staff actions match these filters.')).toBeNull();
    expect(pagerCount()).toBeNull();
    // Clear filters: the whole log again, with its count
    await userEvent.click(within(refusal).getByRole('button', { name: 'Clear filters' }));
    await rowOf('Deleted a post by Ben');
    expect(pagerCount()).toBe('1-3 of 3');
  });
});

describe('the date bounds', () => {
  it('turn a local day into the instants it starts and ends, and back', () => {
    const start = startOfLocalDay('2026-03-29');
    const end = endOfLocalDay('2026-03-29');
    expect(new Date(start).getHours()).toBe(0);
    expect(new Date(end).getHours()).toBe(23);
    expect(Date.parse(end) - Date.parse(start)).toBeGreaterThan(22 * 3600_000); // a day, DST or not
    expect(localDay(start)).toBe('2026-03-29');
    expect(localDay(end)).toBe('2026-03-29');
    expect(startOfLocalDay('')).toBe('');
    expect(localDay(undefined)).toBe('');
  });
});

describe('Staff actions on a phone', () => {
  it('shows each action as a card with its time, actor, type, target and summary, and the same history links; the filters stay', async () => {
    atPhoneWidth();
    fakeServer();
    renderAudit();
    const deleted = await screen.findByRole('article', { name: 'Deleted a post by Ben' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(ENTRIES.map((e) => e.summary));
    for (const label of ['Time', 'Actor', 'Type', 'Target', 'Summary']) expect(within(deleted).getByText(label)).toBeTruthy();
    expect(within(deleted).getByText('Post deleted')).toBeTruthy();
    expect(within(deleted).getByText('admin@forum.local')).toBeTruthy();
    expect(within(deleted).getByRole('link', { name: 'Ada Admin' }).getAttribute('href')).toBe('/admin/history/user/u-ada');
    expect(
      within(deleted)
        .getByRole('link', { name: `History of post ${POST_ID}` })
        .getAttribute('href'),
    ).toBe(`/admin/history/post/${POST_ID}`);
    const grant = screen.getByRole('article', { name: 'Made Ann Author an admin' });
    expect(within(grant).getByRole('link', { name: 'History of user u-ann' }).getAttribute('href')).toBe('/admin/history/user/u-ann');
    expect(within(screen.getByRole('article', { name: 'Created the tag #Rust' })).queryByRole('link', { name: /^History of/ })).toBeNull();
    // the filters are all there, and still narrow the cards
    expect(screen.getByRole('textbox', { name: 'Actor (email or id)' })).toBeTruthy();
    expect(screen.getByLabelText('From')).toBeTruthy();
    expect(screen.getByLabelText('To')).toBeTruthy();
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Tag created' }));
    await waitFor(() => expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['Created the tag #Rust']));
  });
});
