import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CookieJar,
  formAction,
  formValue,
  mailLinkFor,
  passwordTokens,
  randomAddress,
  registerThroughThePage,
  startHarness,
  type Harness,
  ONE_PROXY,
} from './test-support.ts';

/**
 * ADMIN_EMAILS in the realm: the role 'admin' goes only to an account whose email is verified.
 * Registration mails a verification link (development mailbox here); following it, or resetting
 * the password through the mailed link, proves the mailbox.
 */
const PASSWORD = 'Forum#2026';
const NEW_PASSWORD = 'Proven!Mailbox1';
let h: Harness;
const tag = randomBytes(3).toString('hex');
const listed = (name: string) => `${name}-${tag}@forum.local`;
const address = randomAddress;

beforeAll(async () => {
  h = await startHarness({
    trustProxy: ONE_PROXY,
    adminEmails: [listed('boss'), listed('chief'), listed('head'), listed('later'), listed('scripted')],
    mail: { from: 'Forum <no-reply@forum.local>' },
  });
  await h.realm.accounts.create({ email: 'admin@forum.local', password: PASSWORD, name: 'Admin', roles: ['admin'] });
});

afterAll(() => h?.close());

const tokenFor = (email: string, password = PASSWORD) => passwordTokens(h, email, password);

/** keycloak-js register() with the register page filled in: back at the app with tokens, as today. */
const register = async (email: string) =>
  (
    await registerThroughThePage(
      h,
      { email, password: PASSWORD, name: 'Would Be Boss', photo: 'https://example.test/boss.png' },
      { headers: { 'x-forwarded-for': address() } },
    )
  ).tokens;

const roles = (accessToken: string) => (decodeJwt(accessToken).realm_access as { roles: string[] }).roles;
const adminApi = (accessToken: string) => fetch(`${h.origin}/admin/realms/forum/users`, { headers: { authorization: `Bearer ${accessToken}` } });

describe('registering an address of ADMIN_EMAILS', () => {
  it('signs in and returns to the app as today, unverified and without the admin role; the admin API refuses it', async () => {
    const email = listed('boss');
    const tokens = await register(email);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ email, email_verified: false });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email, email_verified: false });
    expect(roles(tokens.access_token)).toEqual(['user']);
    expect((await adminApi(tokens.access_token)).status).toBe(403);
    expect(roles((await tokenFor(email)).access_token)).toEqual(['user']);
  });

  it('mails a verification link; following it verifies the email and makes the account admin; the link works once', async () => {
    const email = listed('chief');
    await register(email);
    const link = await mailLinkFor(h, email, 'verify-email');
    expect(link).toMatch(new RegExp(`^${h.issuer}/login-actions/verify-email\\?key=[\\w-]{43}$`));
    const mailbox = await (await h.get(`${h.issuer}/mailbox`)).text();
    expect(mailbox).toContain('Confirm your email address for Forum');
    expect(mailbox).toContain('works once, for 24 hours');

    const followed = await h.get(link);
    expect(followed.status).toBe(200);
    const page = await followed.text();
    expect(page).toContain('Your email address is confirmed');
    expect(followed.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const after = await tokenFor(email);
    expect(decodeJwt(after.access_token)).toMatchObject({ email_verified: true });
    expect(roles(after.access_token).sort()).toEqual(['admin', 'user']);
    expect((await adminApi(after.access_token)).status).toBe(200);

    // followed again (a mail scanner came first, say): still the friendly answer, nothing else changes
    const again = await h.get(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Your email address is confirmed');
  });

  it('offers a new link when the old one has expired, and a garbled one is refused', async () => {
    const email = listed('head');
    await register(email);
    const link = await mailLinkFor(h, email, 'verify-email');
    await h.db.raw(
      `UPDATE identity.action_tokens SET expires_at = now() - interval '1 minute'
       WHERE kind = 'verify-email' AND account_id = (SELECT id FROM identity.accounts WHERE email = ?)`,
      [email],
    );
    const jar = new CookieJar();
    const expired = await h.get(link, jar);
    expect(expired.status).toBe(410);
    const html = await expired.text();
    expect(html).toContain('This link has expired');
    expect(roles((await tokenFor(email)).access_token)).toEqual(['user']);

    const resent = await h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), key: formValue(html, 'key') }, jar);
    expect(resent.status).toBe(200);
    expect(await resent.text()).toContain('We sent a new link');
    let fresh = link;
    await expect.poll(async () => (fresh = await mailLinkFor(h, email, 'verify-email'))).not.toBe(link);
    expect((await h.get(fresh)).status).toBe(200);
    expect(roles((await tokenFor(email)).access_token).sort()).toEqual(['admin', 'user']);

    const garbled = await h.get(`${h.issuer}/login-actions/verify-email?key=${'A'.repeat(43)}`);
    expect(garbled.status).toBe(400);
    expect(await garbled.text()).toContain('This link is not valid');
  });

  it('counts a password reset through the mailed link as proof of the mailbox (Keycloak does the same)', async () => {
    const email = listed('later');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Later' });
    expect(roles((await tokenFor(email)).access_token)).toEqual(['user']);
    const jar = new CookieJar();
    const form = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, jar)).text();
    await h.postForm(formAction(form), { csrf: formValue(form, 'csrf'), email }, jar, { 'x-forwarded-for': address() });
    const resetJar = new CookieJar();
    const page = await (await h.get(await mailLinkFor(h, email, 'action-token'), resetJar)).text();
    const done = await h.postForm(
      formAction(page),
      { csrf: formValue(page, 'csrf'), key: formValue(page, 'key'), password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD },
      resetJar,
    );
    expect(done.status).toBe(200);
    const after = await tokenFor(email, NEW_PASSWORD);
    expect(decodeJwt(after.access_token)).toMatchObject({ email_verified: true });
    expect(roles(after.access_token).sort()).toEqual(['admin', 'user']);
  });

  it('gives the role to accounts made verified (operator code, the admin API with emailVerified) and not to unverified ones', async () => {
    const made = listed('scripted');
    await h.realm.accounts.create({ email: made, password: PASSWORD, name: 'Made', emailVerified: true });
    expect(roles((await tokenFor(made)).access_token).sort()).toEqual(['admin', 'user']);

    const admin = (await tokenFor('admin@forum.local')).access_token;
    const create = (email: string, emailVerified?: boolean) =>
      fetch(`${h.origin}/admin/realms/forum/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({
          email,
          enabled: true,
          ...(emailVerified === undefined ? {} : { emailVerified }),
          credentials: [{ type: 'password', value: PASSWORD }],
        }),
      });
    const unverified = `unverified-${tag}@forum.local`;
    const verified = `verified-${tag}@forum.local`;
    await h.restart({ trustProxy: ONE_PROXY, adminEmails: [unverified, verified], mail: { from: 'Forum <no-reply@forum.local>' } });
    expect((await create(unverified)).status).toBe(201);
    expect((await create(verified, true)).status).toBe(201);
    expect(roles((await tokenFor(unverified)).access_token)).toEqual(['user']);
    expect(roles((await tokenFor(verified)).access_token).sort()).toEqual(['admin', 'user']);
  });
});
