import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DUPLICATE_EMAIL_MESSAGE } from './messages.ts';
import { PASSWORD, address, tokenFor, openLoginPage, mailboxLinkFor, useAccountsRealm } from './flows-test-support.ts';
import { CookieJar, fieldErrorOf, followToApp, formAction, formValue, openRegisterPage, uniqueEmail, ONE_PROXY, type Harness } from './test-support.ts';

let h: Harness;
useAccountsRealm((started) => (h = started));

describe('email addresses: one account per mailbox, however the address is written', () => {
  async function register(email: string) {
    const jar = new CookieJar();
    const { pageUrl, html } = await openRegisterPage(h, jar);
    return h.postForm(
      pageUrl,
      { csrf: formValue(html, 'csrf'), name: 'Same Mailbox', photo: 'https://example.test/m.png', email, password: PASSWORD, 'password-confirm': PASSWORD },
      jar,
      { 'x-forwarded-for': address() },
    );
  }

  it('refuses to register alice@forum.local. (trailing dot), another case, surrounding spaces or another Unicode form as a new account', async () => {
    for (const variant of ['alice@forum.local.', ' ALICE@Forum.Local. ']) {
      const res = await register(variant);
      expect(res.status, variant).toBe(409);
      expect(fieldErrorOf(await res.text(), 'email')).toBe(DUPLICATE_EMAIL_MESSAGE);
    }
    const precomposed = `ren\u00e9-${randomBytes(3).toString('hex')}@forum.local`;
    await h.realm.accounts.create({ email: precomposed, password: PASSWORD, name: 'René' });
    expect((await register(precomposed.replace('\u00e9', 'e\u0301'))).status).toBe(409);
    expect((await register('alice@forum.local..')).status).toBe(400);
    const rows = await h.db.withSchema('identity').from<{ email: string }>('accounts').whereLike('email', 'alice@forum.local%').pluck('email');
    expect(rows).toEqual(['alice@forum.local']);
  });

  it('#39 edge 3: refuses to register an address whose domain has no dot (a@b), as the Contact page refuses it', async () => {
    const res = await register('a@b');
    expect(res.status).toBe(400);
    expect(fieldErrorOf(await res.text(), 'email')).toBe('Enter a valid email address.');
    expect(await h.realm.accounts.findByEmail('a@b')).toBeNull();
  });

  it('refuses sign-ins whose address is not one (NUL, a lone surrogate, invisible characters) like a wrong password, page and password grant', async () => {
    for (const username of ['alice\u0000@forum.local', 'alice\ud800@forum.local', '\u200b', 'a'.repeat(300_000)]) {
      const grant = await h.passwordGrant(username, PASSWORD, { 'x-forwarded-for': address() });
      // a refused sign-in, or (300 kB) a body larger than the token endpoint reads
      const tooLarge = username.length > 100_000;
      expect(grant.status, JSON.stringify(username.slice(0, 20))).toBe(tooLarge ? 413 : 400);
      expect(((await grant.json()) as { error: string }).error).toBe(tooLarge ? 'invalid_request' : 'invalid_grant');
      const jar = new CookieJar();
      const login = await openLoginPage(h, jar);
      const page = await h.postForm(formAction(login.html), { csrf: formValue(login.html, 'csrf'), email: username, password: PASSWORD }, jar, {
        'x-forwarded-for': address(),
      });
      expect(page.status).toBeLessThan(500);
    }
  });

  it('signs in (page and password grant), resets the password and finds the account (admin API) with any spelling of the address', async () => {
    const jar = new CookieJar();
    const login = await openLoginPage(h, jar);
    const signedIn = await h.postForm(formAction(login.html), { csrf: formValue(login.html, 'csrf'), email: ' Alice@Forum.LOCAL. ', password: PASSWORD }, jar, {
      'x-forwarded-for': address(),
    });
    expect(signedIn.status).toBe(303);
    const signInBack = await followToApp(signedIn, jar, h.origin);
    expect(new URLSearchParams(signInBack.appUrl!.hash.slice(1)).has('kc_action')).toBe(false);
    expect((await h.passwordGrant('ALICE@forum.local.', PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);

    const email = uniqueEmail('dotted');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Dotted' });
    const formJar = new CookieJar();
    const form = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, formJar)).text();
    await h.postForm(formAction(form), { csrf: formValue(form, 'csrf'), email: `${email.toUpperCase()}.` }, formJar, { 'x-forwarded-for': address() });
    expect(await mailboxLinkFor(h, email)).toMatch(/action-token\?key=/);

    const token = await tokenFor(h, 'admin@forum.local');
    const duplicate = await fetch(`${h.origin}/admin/realms/forum/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: 'Alice@Forum.local.', enabled: true, credentials: [{ type: 'password', value: PASSWORD }] }),
    });
    expect(duplicate.status).toBe(409);
    const found = await fetch(`${h.origin}/admin/realms/forum/users?email=${encodeURIComponent(' ALICE@forum.local. ')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await found.json()) as Array<{ email: string }>).map((user) => user.email)).toEqual(['alice@forum.local']);
  });

  it('stores addresses written before normalisation in their normal form at the next start, unless another account holds it', async () => {
    const tag = randomBytes(3).toString('hex');
    const insert = (email: string, age: string) =>
      h.db.raw(`INSERT INTO identity.accounts (id, email, name, password_hash, created_at) VALUES (gen_random_uuid(), ?, 'Old', '', now() - ?::interval)`, [
        email,
        age,
      ]);
    await insert(`dot-${tag}@forum.local.`, '2 days');
    await insert(`nfd-${tag}-e\u0301@forum.local`, '2 days');
    await insert(`nfd-${tag}-e\u0301@forum.local.`, '1 day');
    await insert(`taken-${tag}@forum.local`, '2 days');
    await insert(`taken-${tag}@forum.local.`, '1 day');
    // a database from before the rewrite: without the row that says it was done
    await h.db.raw(`DELETE FROM identity.migrations WHERE name = 'emails-normalized'`);
    await h.restart({ trustProxy: ONE_PROXY });
    const emails = (
      await h.db.withSchema('identity').from<{ email: string }>('accounts').whereLike('email', `%${tag}%`).orderBy('email').pluck('email')
    ).sort();
    expect(emails).toEqual(
      [
        `dot-${tag}@forum.local`,
        `nfd-${tag}-\u00e9@forum.local`,
        `nfd-${tag}-e\u0301@forum.local.`,
        `taken-${tag}@forum.local`,
        `taken-${tag}@forum.local.`,
      ].sort(),
    );
  });
});
