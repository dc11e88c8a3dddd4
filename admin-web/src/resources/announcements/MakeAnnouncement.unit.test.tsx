// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { ANNOUNCEMENT_DESCRIPTION_MAX, ANNOUNCEMENT_TITLE_MAX } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { descriptionOf, n } from '@forum/web-ui/testing';
import { quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { MakeAnnouncement } from './MakeAnnouncement';

/**
 * POST /api/admin/announcements, answered when the test says so (`release`), with `answer`
 * (201 and the command's position unless told otherwise).
 */
function fakeServer(answer: { status: number; body?: unknown } = { status: 201, body: { id: 'a-1', position: '90.1' } }) {
  const sent: unknown[] = [];
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  stubServer(async ({ url, init }) => {
    if ((init.method ?? 'GET') === 'POST' && url.pathname === '/api/admin/announcements') {
      sent.push(JSON.parse(String(init.body)));
      await answered;
      return respond(answer.body ?? '', answer.status, answer.status < 300 ? { 'X-Event-Position': '90.1' } : {});
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { sent, release };
}

function Where() {
  return <output aria-label="Location">{useLocation().pathname}</output>;
}

/**
 * The page as the console mounts it, on a route that stays mounted when the console goes to its
 * dashboard, so what the form holds afterwards can be seen.
 */
const renderPage = () =>
  renderConsole(
    <Routes>
      <Route
        path="/admin/*"
        element={
          <>
            <MakeAnnouncement />
            <Where />
          </>
        }
      />
    </Routes>,
    { path: '/admin/make-announcement' },
  );

const title = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Title' });
const description = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Description' });
const location = () => screen.getByRole('status', { name: 'Location' }).textContent;

describe('Make Announcement', () => {
  it("shows 'Title is required' and 'Description is required' on the fields for an empty form, and sends nothing", async () => {
    const { sent } = fakeServer();
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));

    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Description is required')).toBeTruthy();
    expect(title().getAttribute('aria-invalid')).toBe('true');
    expect(description().getAttribute('aria-invalid')).toBe('true');
    // the message is the field's description, read with it
    expect(title().getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(title().getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('Title is required');

    // spaces alone are no title either
    await userEvent.type(title(), '   ');
    await userEvent.type(description(), 'Only a description');
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));
    await waitFor(() => expect(screen.queryByText('Description is required')).toBeNull());
    expect(screen.getByText('Title is required')).toBeTruthy();
    expect(sent).toEqual([]);
    expect(location()).toBe('/admin/make-announcement');
  });

  it("posts it ('Posting...' meanwhile), says 'Announcement created successfully', empties the form and goes to the dashboard", async () => {
    const { sent, release } = fakeServer();
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();

    await userEvent.type(title(), '  Maintenance on Sunday ');
    await userEvent.type(description(), 'The forum is read-only from 02:00 to 03:00 UTC.');
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));

    const posting = await screen.findByRole('button', { name: 'Posting...' });
    expect((posting as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toEqual([{ title: 'Maintenance on Sunday', description: 'The forum is read-only from 02:00 to 03:00 UTC.' }]);
    release();

    expect(await screen.findByText('Announcement created successfully')).toBeTruthy();
    await waitFor(() => expect(location()).toBe('/admin'));
    expect(title().value).toBe('');
    expect(description().value).toBe('');
    expect(screen.queryByText('Title is required')).toBeNull();
    expect(screen.getByRole('button', { name: 'Post Announcement' })).toBeTruthy();
  });

  it("says 'Failed to create announcement' when the server refuses, and keeps the form and the page", async () => {
    quietHttpErrors();
    const { release } = fakeServer({ status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } });
    release();
    renderPage();
    await userEvent.type(title(), 'Maintenance on Sunday');
    await userEvent.type(description(), 'Read-only for an hour.');
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));

    expect(await screen.findByText('Failed to create announcement')).toBeTruthy();
    expect(title().value).toBe('Maintenance on Sunday');
    expect(description().value).toBe('Read-only for an hour.');
    expect(location()).toBe('/admin/make-announcement');
    expect(screen.getByRole('button', { name: 'Post Announcement' })).toBeTruthy();
  });

  it("shows the API's own field message of a refused announcement on its field", async () => {
    quietHttpErrors();
    const { release } = fakeServer({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { title: ['Title must be at most 200 characters'] } } },
    });
    release();
    renderPage();
    await userEvent.type(title(), 'A title the server finds too long');
    await userEvent.type(description(), 'Whatever.');
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));

    expect(await screen.findByText('Failed to create announcement')).toBeTruthy();
    expect(await screen.findByText('Title must be at most 200 characters')).toBeTruthy();
    expect(title().getAttribute('aria-invalid')).toBe('true');
  });

  it(`counts the title against ${ANNOUNCEMENT_TITLE_MAX} and the description against ${ANNOUNCEMENT_DESCRIPTION_MAX} characters, as the API counts them; over the limit nothing is sent`, async () => {
    const { sent } = fakeServer();
    renderPage();
    expect(descriptionOf(title())).toBe(`${n(ANNOUNCEMENT_TITLE_MAX)} characters left (0 of ${n(ANNOUNCEMENT_TITLE_MAX)})`);
    expect(descriptionOf(description())).toBe(`${n(ANNOUNCEMENT_DESCRIPTION_MAX)} characters left (0 of ${n(ANNOUNCEMENT_DESCRIPTION_MAX)})`);
    await userEvent.type(title(), 'Caf\u00e9 \u{1f389}');
    expect(descriptionOf(title())).toBe(`${n(ANNOUNCEMENT_TITLE_MAX - 6)} characters left (6 of ${n(ANNOUNCEMENT_TITLE_MAX)})`);
    await userEvent.click(description());
    await userEvent.paste('x'.repeat(ANNOUNCEMENT_DESCRIPTION_MAX + 1));
    // over the limit at once, before any submit: an error state that says by how much, and a polite announcement
    await waitFor(() => expect(description().getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(description())).toBe(`1 character too many (the most is ${n(ANNOUNCEMENT_DESCRIPTION_MAX)})`);
    expect(screen.getByText('Too many characters: the most is 5,000')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Post Announcement' }));
    expect(sent).toEqual([]);
  });
});
