// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { RevisionView } from './revision';
import RevisionsDialog from './RevisionsDialog';
import { WordDiff } from './WordDiff';

afterEach(cleanup);

const revision = (number: number, title: string, description: string, reason?: string): RevisionView => ({
  number,
  editedAt: `2026-12-0${number}T10:00:00.000Z`,
  editorName: number === 3 ? 'Admin' : 'Alice',
  reason,
  fields: [
    { label: 'Title', text: title },
    { label: 'Description', text: description },
  ],
});
const REVISIONS = [
  revision(1, 'Zero downtime', 'Blue-green with a databse switch.'),
  revision(2, 'Zero downtime', 'Blue-green with a database switch.'),
  revision(3, 'Zero-downtime deploys', 'Blue-green with a database switch.', 'Clearer title'),
];
const show = (revisions = REVISIONS) =>
  render(<RevisionsDialog open onClose={() => {}} subject="this post" state={{ isLoading: false, isError: false, revisions, totalCount: revisions.length }} />);

describe('WordDiff', () => {
  it('marks inserted words with <ins> and removed ones with <del>, each read out as "added" or "removed"', () => {
    const { container } = render(<WordDiff before="fix the databse switch" after="fix the database switch now" />);
    const inserted = [...container.querySelectorAll('ins')].map((node) => node.textContent);
    const removed = [...container.querySelectorAll('del')].map((node) => node.textContent);
    expect(removed).toEqual([' removed: databse']);
    expect(inserted).toEqual([' added: database', ' added: now']);
    expect(container.textContent).toBe('fix the  removed: databse added: database switch  added: now');
  });

  it('marks nothing when nothing changed', () => {
    const { container } = render(<WordDiff before="same words" after="same words" />);
    expect(container.querySelectorAll('ins, del')).toHaveLength(0);
    expect(container.textContent).toBe('same words');
  });
});

describe('the revisions dialog', () => {
  it("lists every revision with its time, editor and reason, and shows the newest revision's changes field by field", () => {
    show();
    const dialog = screen.getByRole('dialog', { name: 'Revisions of this post' });
    const items = within(within(dialog).getByRole('list', { name: 'Revisions' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Revision 1 \(as written\), .+, by Alice$/),
      expect.stringMatching(/^Revision 2, .+, by Alice$/),
      expect.stringMatching(/^Revision 3, .+, by AdminReason: Clearer title$/),
    ]);
    expect(within(dialog).getByRole('heading', { name: 'What changed in revision 3' })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Title' })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Description (unchanged)' })).toBeTruthy();
    expect([...dialog.querySelectorAll('ins')].map((node) => node.textContent)).toEqual([' added: -', ' added: deploys']);
  });

  it('compares another revision with the one before it, chosen by keyboard', async () => {
    show();
    const compare = screen.getByRole('combobox', { name: 'Compare' });
    compare.focus();
    await userEvent.keyboard('{Enter}');
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Revision 1 → revision 2', 'Revision 2 → revision 3']);
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(await screen.findByRole('heading', { name: 'What changed in revision 2' })).toBeTruthy();
    const dialog = screen.getByRole('dialog', { name: 'Revisions of this post' });
    expect([...dialog.querySelectorAll('del')].map((node) => node.textContent)).toEqual([' removed: databse']);
    expect([...dialog.querySelectorAll('ins')].map((node) => node.textContent)).toEqual([' added: database']);
  });

  it('says when the revisions could not be loaded', () => {
    render(<RevisionsDialog open onClose={() => {}} subject="this comment" state={{ isLoading: false, isError: true }} />);
    expect(screen.getByText('The revisions could not be loaded. Please try again later.')).toBeTruthy();
  });
});
