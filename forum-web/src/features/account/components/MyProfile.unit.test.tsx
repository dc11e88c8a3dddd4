// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DISPLAY_NAME_MAX, PHOTO_URL_MAX } from '@forum/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, n, stubApi } from '@forum/web-ui/testing';
import { stubImages, renderWithApp } from '../../../testing/render-with-app';
import { BOB, profile } from '../testing/fixtures';
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
