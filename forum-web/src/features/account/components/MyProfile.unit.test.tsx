// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DISPLAY_NAME_MAX, HANDLE_MAX, HANDLE_MIN, PHOTO_URL_MAX } from '@forum/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, n, stubApi, type Reply } from '@forum/web-ui/testing';
import { stubImages, renderWithApp } from '../../../testing/render-with-app';
import { BOB, me, profile } from '../testing/fixtures';
import { HANDLE_HINT } from './ChangeHandle';
import { MyProfile } from './MyProfile';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderPage = () => renderWithApp(<MyProfile />, { path: '/dashboard', user: BOB });

/** Change Photo's dialog, opened, and its photo address field. */
async function openChangePhoto() {
  await userEvent.click(await screen.findByRole('button', { name: 'Change Photo' }));
  const dialog = await screen.findByRole('dialog', { name: 'Your photo and name' });
  return { dialog, photo: within(dialog).getByRole('textbox', { name: 'Photo URL' }) };
}

describe('My Profile of an account whose email address is not verified yet', () => {
  it('says where the confirmation link went, and nothing once the address is verified', async () => {
    stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }) });
    renderWithApp(<MyProfile />, { path: '/dashboard', user: { ...BOB, emailVerified: false } });
    const hint = await screen.findByText(/confirm your email address/);
    expect(hint.textContent).toBe(`Please confirm your email address: we sent a link to ${BOB.email}. Open it to finish setting up your account.`);
    cleanup();
    renderWithApp(<MyProfile />, { path: '/dashboard', user: { ...BOB, emailVerified: true } });
    await screen.findByRole('heading', { name: 'My Profile' });
    expect(screen.queryByText(/confirm your email address/)).toBeNull();
  });
});

describe('My Profile just after a new member signs up', () => {
  it("waits for the forum's record of them: its read carries the registration's position, so a lagging read side does not answer 404", async () => {
    // the read side answers for this member only once it has applied the registration (X-Min-Position)
    stubApi({
      'GET /api/user-profile/bob%40forum.local': (request) =>
        request.headers.get('X-Min-Position') === '4711.3'
          ? { body: profile(false) }
          : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such user' } } },
    });
    renderWithApp(<MyProfile />, { path: '/dashboard', user: BOB, registration: '4711.3' });
    expect(await screen.findByRole('heading', { name: 'My Profile', level: 1 })).toBeTruthy();
    expect(screen.queryByText('Your profile could not be loaded. Please try again later.')).toBeNull();
  });
});

describe('My Profile', () => {
  it('shows the name, email, Bronze badge, three statistics and the recent posts with votes and comments', async () => {
    stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: BOB.name })).toBeTruthy();
    expect(screen.getByText(BOB.email)).toBeTruthy();
    expect(screen.getByText('Bronze Member')).toBeTruthy();
    const stats = screen.getByRole('heading', { name: 'Statistics' }).parentElement!;
    expect(stats.textContent).toContain('Posts4');
    expect(stats.textContent).toContain('Comments received9');
    expect(stats.textContent).toContain('Up votes received13');
    const posts = screen.getAllByRole('article');
    expect(posts).toHaveLength(3);
    expect(posts[1]!.textContent).toContain('2 up votes');
    expect(posts[1]!.textContent).toContain('4 comments');
  });

  it('shows Gold for a member', async () => {
    stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(true) }) });
    renderPage();
    expect(await screen.findByText('Gold')).toBeTruthy();
    expect(screen.queryByText('Bronze Member')).toBeNull();
  });

  it('Change Photo sends the new address and shows the new photo at once', async () => {
    let sent: unknown;
    const url = 'https://img.example/bob.png';
    const { asked } = stubImages((src) => src === url);
    stubApi({
      'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }),
      'PATCH /api/me': async (request) => {
        sent = await request.json();
        return { body: { id: BOB.id, position: '30.1' } };
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Change Photo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your photo and name' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Photo URL' }), url);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual({ photoURL: url });
    expect(asked).toEqual([url]);
    expect(screen.getByRole('img', { name: `Photo of ${BOB.name}` }).getAttribute('src')).toBe(url);
  });

  it("#28.9 Change Photo with a link that is not an image says so on the field and saves nothing: no 'Profile updated', the photo as it was", async () => {
    const page = 'https://example.com/about.html';
    const { asked } = stubImages(() => false);
    const { calls } = stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }) });
    renderPage();
    const { dialog, photo } = await openChangePhoto();
    await userEvent.type(photo, page);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(descriptionOf(photo)).toContain('That link did not load as an image. Check the address and try again.'));
    expect(photo.getAttribute('aria-invalid')).toBe('true');
    expect(asked).toEqual([page]);
    expect(calls).not.toContain('PATCH /api/me');
    expect(screen.queryByText('Profile updated')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Your photo and name' })).toBeTruthy();
    // typing again clears the message
    await userEvent.type(photo, 'x');
    expect(descriptionOf(photo)).not.toContain('did not load');
  });

  it.each(['javascript:alert(1)', 'not a url', 'http://img.example/bob.png', 'img.example/bob.png'])(
    '#39 edge 12: Change Photo says "Use an https:// address" of %s, and neither loads it nor calls the server',
    async (typed) => {
      const { asked } = stubImages(() => true);
      const { calls } = stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }) });
      renderPage();
      const { dialog, photo } = await openChangePhoto();
      await userEvent.type(photo, typed);
      // the preview shows only an address that may be saved: nothing else is fetched as the member types
      expect(dialog.querySelectorAll('img')).toHaveLength(0);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(descriptionOf(photo)).toMatch(/^Use an https:\/\/ address/));
      expect(photo.getAttribute('aria-invalid')).toBe('true');
      expect(dialog.querySelectorAll('img')).toHaveLength(0);
      expect(asked).toEqual([]);
      expect(calls).not.toContain('PATCH /api/me');
    },
  );

  it('#39 edge 12: the preview shows the photo as it is, and a new address once it may be saved', async () => {
    const url = 'https://img.example/new.png';
    stubImages(() => true);
    stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false, 'https://img.example/old.png') }) });
    renderPage();
    const { dialog, photo } = await openChangePhoto();
    const preview = () => [...dialog.querySelectorAll('img')].map((image) => image.getAttribute('src'));
    expect(preview()).toEqual(['https://img.example/old.png']);
    await userEvent.clear(photo);
    await userEvent.type(photo, 'http://img.example/new.png');
    expect(preview()).toEqual([]);
    await userEvent.clear(photo);
    await userEvent.type(photo, url);
    await waitFor(() => expect(preview()).toEqual([url]));
  });

  it(`Change Photo also changes the display name; both are counted (${DISPLAY_NAME_MAX} and ${PHOTO_URL_MAX} characters) and only what changed is sent`, async () => {
    let sent: unknown;
    stubApi({
      'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }),
      'PATCH /api/me': async (request) => {
        sent = await request.json();
        return { body: { id: BOB.id, position: '31.1' } };
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Change Photo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your photo and name' });
    const name = within(dialog).getByRole('textbox', { name: 'Display name' });
    const photo = within(dialog).getByRole('textbox', { name: 'Photo URL' });
    expect((name as HTMLInputElement).value).toBe(BOB.name);
    expect(descriptionOf(name)).toBe(`${n(DISPLAY_NAME_MAX - BOB.name.length)} characters left (${n(BOB.name.length)} of ${n(DISPLAY_NAME_MAX)})`);
    expect(descriptionOf(photo)).toContain(`${n(PHOTO_URL_MAX)} characters left (0 of ${n(PHOTO_URL_MAX)})`);
    await userEvent.clear(name);
    await userEvent.paste('y'.repeat(DISPLAY_NAME_MAX + 1));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(`Display name must be at most ${DISPLAY_NAME_MAX} characters`)).toBeTruthy();
    expect(sent).toBeUndefined();
    await userEvent.clear(name);
    await userEvent.type(name, 'Bobby');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual({ displayName: 'Bobby' });
  });
});

describe("#42.1 My Profile's handle", () => {
  /** GET /api/me and the profile for BOB (@bob.chen); PATCH /api/me answers `patch`, and the bodies sent are kept. */
  function stubHandle(patch: () => Reply = () => ({ body: { id: BOB.id, position: '32.1' } })) {
    const sent: unknown[] = [];
    let handle = me(false).handle;
    const stub = stubApi({
      'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }),
      'GET /api/me': () => ({ body: { ...me(false), handle } }),
      'PATCH /api/me': async (request) => {
        const body = (await request.json()) as { handle: string };
        sent.push(body);
        const answer = await patch();
        if (!(answer instanceof Response) && (answer.status ?? 200) < 300) handle = body.handle;
        return answer;
      },
    });
    return { ...stub, sent };
  }

  async function handleField() {
    const section = (await screen.findByRole('heading', { name: 'Handle' })).parentElement!;
    return { field: await within(section).findByRole('textbox', { name: 'Handle' }), save: within(section).getByRole('button', { name: 'Save handle' }) };
  }

  it('shows @handle under the name and in the field, with the rules as its description; Save is off until it changes', async () => {
    stubHandle();
    renderPage();
    const { field, save } = await handleField();
    expect(screen.getByText('@bob.chen')).toBeTruthy();
    expect((field as HTMLInputElement).value).toBe('bob.chen');
    expect(descriptionOf(field)).toBe(HANDLE_HINT);
    expect(HANDLE_HINT).toContain(`${HANDLE_MIN} to ${HANDLE_MAX} letters a-z, digits and _, with a single . or - between them`);
    expect(save.hasAttribute('disabled')).toBe(true);
  });

  it('saves a new handle: PATCH /api/me {handle}, a toast, and the new handle shown', async () => {
    const { sent } = stubHandle();
    renderPage();
    const { field, save } = await handleField();
    await userEvent.clear(field);
    await userEvent.type(field, 'Bobby_C');
    await userEvent.click(save);
    expect(await screen.findByText('Your handle is now @Bobby_C')).toBeTruthy();
    expect(sent).toEqual([{ handle: 'Bobby_C' }]);
    await waitFor(() => expect(screen.getByText('@Bobby_C')).toBeTruthy());
    expect(screen.queryByText('@bob.chen')).toBeNull();
    expect(save.hasAttribute('disabled')).toBe(true);
  });

  it.each([
    ['bo', `Handle must be at least ${HANDLE_MIN} characters`],
    ['bob..chen', 'Handle may use letters a-z, digits and _, with single . or - between them (not first or last)'],
    ['admin', 'Handle is reserved: choose another'],
    ['b'.repeat(HANDLE_MAX + 1), `Handle must be at most ${HANDLE_MAX} characters`],
  ])('says what is wrong with %j by the field and sends nothing; typing again clears it', async (typed, message) => {
    const { calls } = stubHandle();
    renderPage();
    const { field, save } = await handleField();
    await userEvent.clear(field);
    await userEvent.type(field, typed);
    await userEvent.click(save);
    await waitFor(() => expect(descriptionOf(field)).toBe(message));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls).not.toContain('PATCH /api/me');
    await userEvent.type(field, 'x');
    expect(descriptionOf(field)).toBe(HANDLE_HINT);
  });

  it("409 HANDLE_TAKEN: the server's message by the field, the handle as it was", async () => {
    stubHandle(() => ({ status: 409, body: { error: { code: 'HANDLE_TAKEN', message: 'That handle is taken: choose another' } } }));
    renderPage();
    const { field, save } = await handleField();
    await userEvent.clear(field);
    await userEvent.type(field, 'alice');
    await userEvent.click(save);
    await waitFor(() => expect(descriptionOf(field)).toBe('That handle is taken: choose another'));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('@bob.chen')).toBeTruthy();
    expect(screen.queryByText(/Your handle is now/)).toBeNull();
  });

  it("a 400 with field errors: the server's message for the handle by the field", async () => {
    const message = 'Handle is reserved: choose another';
    stubHandle(() => ({ status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'Invalid request', details: { handle: [message] } } } }));
    renderPage();
    const { field, save } = await handleField();
    await userEvent.clear(field);
    await userEvent.type(field, 'bob_new');
    await userEvent.click(save);
    await waitFor(() => expect(descriptionOf(field)).toBe(message));
    expect(screen.queryByText(/Your handle is now/)).toBeNull();
  });
});
