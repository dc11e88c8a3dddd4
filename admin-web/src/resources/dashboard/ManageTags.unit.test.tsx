// @vitest-environment jsdom
import { TAG_NAME_MAX, type AdminTag } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { descriptionOf, n } from '@forum/web-ui/testing';
import { quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { ManageTags } from './ManageTags';

const TAGS: AdminTag[] = [
  { _id: 't-1', name: 'Databases' },
  { _id: 't-2', name: 'React' },
];

interface Options {
  addAnswer?: { status: number; body?: unknown };
  deleteAnswer?: { status: number; body?: unknown };
}

/**
 * The services behind Manage Tags: GET /api/admin/tags (by name ignoring case, the range asked
 * for, Content-Range), POST /api/admin/tags (409 TAG_EXISTS for a name taken ignoring case) and
 * DELETE /api/admin/tags/:id; each command answers with its position.
 */
function fakeServer(tags: AdminTag[] = TAGS, { addAnswer, deleteAnswer }: Options = {}) {
  let live = [...tags];
  const added: unknown[] = [];
  const readPositions: Array<string | null> = [];
  let position = 40;
  const { calls } = stubServer(({ url, method, init }) => {
    if (method === 'GET' && url.pathname === '/api/admin/tags') {
      readPositions.push(new Headers(init.headers).get('X-Min-Position'));
      const [start, end] = JSON.parse(url.searchParams.get('range')!) as [number, number];
      const sorted = [...live].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
      const page = sorted.slice(start, end + 1);
      return respond(
        page.map((tag) => ({ id: tag._id, ...tag })),
        200,
        { 'Content-Range': `tags ${page.length ? `${start}-${start + page.length - 1}` : '*'}/${sorted.length}` },
      );
    }
    if (method === 'POST' && url.pathname === '/api/admin/tags') {
      const { name } = JSON.parse(String(init.body)) as { name: string };
      added.push({ name });
      if (addAnswer) return respond(addAnswer.body ?? '', addAnswer.status);
      const existing = live.find((tag) => tag.name.toLowerCase() === name.toLowerCase());
      if (existing) {
        return respond({ error: { code: 'TAG_EXISTS', message: `The tag "${existing.name}" already exists`, details: { tag: existing } } }, 409);
      }
      const tag = { _id: `t-${live.length + 10}`, name };
      live = [...live, tag];
      const at = `${++position}.1`;
      return respond({ success: true, id: tag._id, tag, position: at }, 201, { 'X-Event-Position': at });
    }
    const removal = /^\/api\/admin\/tags\/(.+)$/.exec(url.pathname);
    if (method === 'DELETE' && removal) {
      if (deleteAnswer) return respond(deleteAnswer.body ?? '', deleteAnswer.status);
      live = live.filter((tag) => tag._id !== removal[1]);
      const at = `${++position}.1`;
      return respond({ success: true, id: removal[1], position: at }, 200, { 'X-Event-Position': at });
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { calls, added, readPositions, reads: () => calls.filter((call) => call === 'GET /api/admin/tags').length };
}

const renderTags = () => renderConsole(<ManageTags />, { path: '/admin' });
const tagNames = async () =>
  within(await screen.findByRole('list', { name: 'Tags' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
const newTagInput = () => screen.getByRole('textbox', { name: 'Enter new tag' });

describe('Manage Tags', () => {
  it('lists every tag with a leading # and its own delete button', async () => {
    fakeServer();
    renderTags();
    expect(await tagNames()).toEqual(['#Databases', '#React']);
    expect(screen.getByRole('button', { name: 'Delete tag #Databases' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete tag #React' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Manage Tags' })).toBeTruthy();
  });

  it("adds a tag: 'Tag added successfully', the input emptied, and the list read again at the command's position", async () => {
    const { added, readPositions } = fakeServer();
    renderTags();
    await tagNames();
    await userEvent.type(newTagInput(), '  #Svelte ');
    await userEvent.click(screen.getByRole('button', { name: 'Add Tag' }));

    expect(await screen.findByText('Tag added successfully')).toBeTruthy();
    // the # is the page's: the name is sent without it, trimmed
    expect(added).toEqual([{ name: 'Svelte' }]);
    await waitFor(async () => expect(await tagNames()).toEqual(['#Databases', '#React', '#Svelte']));
    expect((newTagInput() as HTMLInputElement).value).toBe('');
    expect(readPositions.at(-1)).toBe('41.1');
  });

  it("asks for a name before sending anything: 'Tag name is required'", async () => {
    const { added } = fakeServer();
    renderTags();
    await tagNames();
    await userEvent.type(newTagInput(), '   {Enter}');
    expect(await screen.findByText('Tag name is required')).toBeTruthy();
    expect(newTagInput().getAttribute('aria-invalid')).toBe('true');
    expect(added).toEqual([]);
    // typing clears the message
    await userEvent.type(newTagInput(), 'G');
    expect(screen.queryByText('Tag name is required')).toBeNull();
  });

  it(`counts the new tag's name against ${TAG_NAME_MAX} characters; over the limit it is in error and nothing is sent`, async () => {
    const { added } = fakeServer();
    renderTags();
    await tagNames();
    expect(descriptionOf(newTagInput())).toBe(`${n(TAG_NAME_MAX)} characters left (0 of ${n(TAG_NAME_MAX)})`);
    await userEvent.type(newTagInput(), 'Rust');
    expect(descriptionOf(newTagInput())).toBe(`${n(TAG_NAME_MAX - 4)} characters left (4 of ${n(TAG_NAME_MAX)})`);
    await userEvent.paste('y'.repeat(TAG_NAME_MAX));
    expect(newTagInput().getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(newTagInput())).toBe(`4 characters too many (the most is ${n(TAG_NAME_MAX)})`);
    expect(newTagInput().hasAttribute('maxlength')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Add Tag' }));
    expect(added).toEqual([]);
  });

  it(`#28.9 an 80-character tag is never cut to ${TAG_NAME_MAX}: Add Tag says the limit on the field, keeps every character typed and sends nothing`, async () => {
    const { added } = fakeServer();
    renderTags();
    await tagNames();
    const long = 'a'.repeat(80);
    await userEvent.click(newTagInput());
    await userEvent.paste(long);
    await userEvent.click(screen.getByRole('button', { name: 'Add Tag' }));

    expect(descriptionOf(newTagInput())).toBe(
      `Tag name must be at most ${TAG_NAME_MAX} characters ${80 - TAG_NAME_MAX} characters too many (the most is ${TAG_NAME_MAX})`,
    );
    expect((newTagInput() as HTMLInputElement).value).toBe(long);
    expect(added).toEqual([]);
    expect(screen.queryByText('Tag added successfully')).toBeNull();
    expect(await tagNames()).toEqual(['#Databases', '#React']);
  });

  it("#28.9 a name the server refuses (400 VALIDATION_FAILED) shows the server's message on the field, not only 'Failed to add tag'", async () => {
    quietHttpErrors();
    const message = `Tag name must be at most ${TAG_NAME_MAX} characters`;
    fakeServer(TAGS, {
      addAnswer: { status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { name: [message] } } } },
    });
    renderTags();
    await tagNames();
    await userEvent.type(newTagInput(), 'Go{Enter}');
    expect(await screen.findByText('Failed to add tag')).toBeTruthy();
    expect(descriptionOf(newTagInput())).toContain(message);
    expect(newTagInput().getAttribute('aria-invalid')).toBe('true');
    expect((newTagInput() as HTMLInputElement).value).toBe('Go');
  });

  it('#39 edge 15: names the tag that exists in its own spelling when the server answers 409 TAG_EXISTS, keeps what was typed, and says it in the card, not over the tags', async () => {
    quietHttpErrors();
    const { reads } = fakeServer();
    renderTags();
    await tagNames();
    const readsBefore = reads();
    await userEvent.type(newTagInput(), 'react{Enter}');
    const message = await screen.findByText('Failed to add tag: #React already exists');
    expect(screen.queryByText(/#react already exists/)).toBeNull();
    expect((newTagInput() as HTMLInputElement).value).toBe('react');
    expect(await tagNames()).toEqual(['#Databases', '#React']);
    expect(reads()).toBe(readsBefore);
    // in the card's flow, between 'Enter new tag' and the tags (it pushes them down), not a toast over the page
    expect(message.closest('[role="alert"]')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Manage Tags' })).getByText('Failed to add tag: #React already exists')).toBe(message);
    expect(message.closest('.MuiSnackbar-root')).toBeNull();
    expect(newTagInput().compareDocumentPosition(message) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(message.compareDocumentPosition(screen.getByRole('list', { name: 'Tags' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // typing again puts it away
    await userEvent.type(newTagInput(), 'x');
    expect(screen.queryByText('Failed to add tag: #React already exists')).toBeNull();
  });

  it("says 'Failed to add tag' for any other refusal", async () => {
    quietHttpErrors();
    fakeServer(TAGS, { addAnswer: { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } } });
    renderTags();
    await tagNames();
    await userEvent.type(newTagInput(), 'Go{Enter}');
    expect(await screen.findByText('Failed to add tag')).toBeTruthy();
  });

  it("deletes a tag once confirmed: 'Tag deleted successfully', the tag gone, the focus back in 'Enter new tag'", async () => {
    const { calls, readPositions } = fakeServer();
    renderTags();
    await tagNames();
    await userEvent.click(screen.getByRole('button', { name: 'Delete tag #React' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete tag #React' });
    expect(confirm.textContent).toContain('Are you sure you want to delete this tag?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Tag deleted successfully')).toBeTruthy();
    await waitFor(async () => expect(await tagNames()).toEqual(['#Databases']));
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /api/admin/tags/t-2']);
    expect(readPositions.at(-1)).toBe('41.1');
    await waitFor(() => expect(document.activeElement).toBe(newTagInput()));
  });

  it('deletes nothing when the confirmation is cancelled, and gives the focus back to the delete button', async () => {
    const { calls } = fakeServer();
    renderTags();
    await tagNames();
    const button = screen.getByRole('button', { name: 'Delete tag #Databases' });
    await userEvent.click(button);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
    expect(await tagNames()).toEqual(['#Databases', '#React']);
    expect(document.activeElement).toBe(button);
  });

  it("says 'Failed to delete tag' when the server refuses, and the tag stays", async () => {
    quietHttpErrors();
    fakeServer(TAGS, { deleteAnswer: { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } } });
    renderTags();
    await tagNames();
    await userEvent.click(screen.getByRole('button', { name: 'Delete tag #React' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete tag')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await tagNames()).toEqual(['#Databases', '#React']);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete tag #React' })));
  });

  it("shows 'No tags found. Add your first tag!' when there are none, and after the last one is deleted", async () => {
    fakeServer([]);
    renderTags();
    expect(await screen.findByText('No tags found. Add your first tag!')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Tags' })).toBeNull();
    cleanup();

    fakeServer([TAGS[1]!]);
    renderTags();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete tag #React' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No tags found. Add your first tag!')).toBeTruthy();
  });
});
