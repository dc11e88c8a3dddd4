import { DISPLAY_NAME_MAX } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, fieldErrorOf, formValue, openRegisterPage, randomAddress, startHarness, type Harness, ONE_PROXY, uniqueEmail } from './test-support.ts';

/**
 * The register form's name and photo, and the account store behind every way an account is made,
 * under the forum's text policy (docs/security/text-policy.md): the same rules as PATCH /api/me.
 */
const PASSWORD = 'Forum#2026';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ trustProxy: ONE_PROXY, mail: { from: 'Forum <no-reply@forum.local>' } });
});
afterAll(async () => {
  await h?.close();
});

async function register(name: string, photo: string, email = uniqueEmail('text')) {
  const jar = new CookieJar();
  const { pageUrl, html } = await openRegisterPage(h, jar);
  const res = await h.postForm(pageUrl, { csrf: formValue(html, 'csrf'), name, photo, email, password: PASSWORD, 'password-confirm': PASSWORD }, jar, {
    'x-forwarded-for': randomAddress(),
  });
  return { status: res.status, page: res.status === 400 ? await res.text() : '', email };
}

describe('the register form refuses what the forum refuses', () => {
  it.each([
    ['a NUL in the name', 'Ann\u0000', 'name', /control characters/],
    ['a zero-width space making "Admin" another account', 'Admin\u200b', 'name', /invisible characters/],
    ['a right-to-left override in the name', 'Ann\u202eeeL', 'name', /text direction controls/],
    ['only invisible characters', '\u200b\u200b', 'name', /visible characters/],
    [`more than ${DISPLAY_NAME_MAX} characters`, 'x'.repeat(DISPLAY_NAME_MAX + 1), 'name', /at most 100 characters/],
  ])('%s', async (_case, name, field, message) => {
    const { status, page, email } = await register(name, 'https://img.example/a.png');
    expect(status).toBe(400);
    expect(fieldErrorOf(page, field)).toMatch(message);
    expect(await h.realm.accounts.findByEmail(email)).toBeNull();
  });

  it.each([
    // (the forum under test is served over http, and only https photos are taken: its https spelling)
    [
      'the forum itself (every viewer would fetch it)',
      () => `${h.origin.replace(/^http:/, 'https:')}/realms/forum/protocol/openid-connect/logout`,
      /the forum itself/,
    ],
    ['the forum by another loopback name', () => `https://localhost:${new URL(h.origin).port}/api/me`, /the forum itself/],
    ['the forum over http', () => `${h.origin}/api/me`, /^Use an https:\/\/ address$/],
    ['http to another host', () => 'http://img.example/a.png', /https/],
    ['a user name and password in it', () => 'https://me:secret@img.example/a.png', /user name or password/],
    ['javascript:', () => 'javascript:alert(1)', /https/],
  ])('a photo address pointing at %s', async (_case, photo, message) => {
    const { status, page, email } = await register('Photo Tester', photo());
    expect(status).toBe(400);
    expect(fieldErrorOf(page, 'photo')).toMatch(message);
    expect(await h.realm.accounts.findByEmail(email)).toBeNull();
  });

  it('keeps a name in NFC and an emoji sequence in it, and the photo address in its canonical form', async () => {
    const { status, email } = await register('Zoe\u0308 \u{1f469}\u200d\u{1f4bb}', 'HTTPS://IMG.example/zoe.png');
    expect(status).toBe(303);
    expect(await h.realm.accounts.findByEmail(email)).toMatchObject({ name: 'Zoë \u{1f469}\u200d\u{1f4bb}', picture: 'https://img.example/zoe.png' });
  });
});

describe('the account store (the admin API, Google, the seed) checks the same', () => {
  it.each([
    ['an invisible character in the name', 'name', () => ({ name: 'Admin\u200b' })],
    ['a lone surrogate in the name', 'name', () => ({ name: 'a\ud800' })],
    ['an http photo elsewhere', 'picture', () => ({ name: 'Ann', picture: 'http://img.example/a.png' })],
    ['a photo at the forum itself', 'picture', () => ({ name: 'Ann', picture: `${h.origin}/api/me` })],
  ])('create() with %s is refused on %s', async (_case, field, input) => {
    const email = uniqueEmail('store');
    await expect(h.realm.accounts.create({ email, password: PASSWORD, ...input() })).rejects.toMatchObject({ fieldErrors: { [field]: [expect.any(String)] } });
    expect(await h.realm.accounts.findByEmail(email)).toBeNull();
  });
});
