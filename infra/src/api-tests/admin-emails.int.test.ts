import type { Me } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, mailLinkFor, registerThroughThePage } from '@forum/identity/testing';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * ADMIN_EMAILS through the whole forum: a listed address registered by whoever comes first is a
 * plain member until the address is verified (the link of the mail); then the forum makes it admin
 * at its next registration check (any signed-in read) or command.
 */
const PASSWORD = 'Welcome#2026';
let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum({ ADMIN_EMAILS: 'first-boss@forum.test, second-boss@forum.test, Third-Boss@Forum.test.' });
});
afterAll(() => forum?.stop());

const fetchManual = async (url: string, jar: CookieJar, init: RequestInit = {}) => {
  const res = await fetch(new URL(url, forum.url), {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header },
  });
  jar.store(res);
  return res;
};
const harness = () => ({
  origin: forum.url,
  issuer: forum.issuer,
  get: (url: string, jar = new CookieJar()) => fetchManual(url, jar),
  postForm: (url: string, form: Record<string, string>, jar = new CookieJar()) =>
    fetchManual(url, jar, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }),
});

/** The register page, as a person fills it in: back at the app signed in, as today. */
async function register(email: string) {
  const { appUrl, tokens } = await registerThroughThePage(
    harness(),
    { email, password: PASSWORD, name: 'Boss To Be', photo: 'https://img.example/boss.png' },
    { redirectUri: `${forum.url}/about` },
  );
  expect(appUrl?.pathname).toBe('/about');
  return tokens.access_token;
}

const freshToken = async (email: string) => {
  const res = await fetch(`${forum.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password: PASSWORD, scope: 'openid' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
};
const roleOf = async (token: string) => ((await (await forum.api('/api/me', { token })).json()) as Me).role;
const userEvents = async (id: string) => (await forum.store.readStream(`user-${id}`)).events.map((e) => [e.type, (e.data as { reason?: string }).reason]);

describe('an address of ADMIN_EMAILS registered unverified', () => {
  it('is a member, not an admin: /api/admin/* answers 403, the forum record and the realm say user; after the link is followed, admin at the next read, recorded by the registration call', async () => {
    const email = 'first-boss@forum.test';
    const token = await register(email);
    expect(await roleOf(token)).toBe('user');
    expect((await forum.api('/api/admin/stats', { token })).status).toBe(403);
    expect((await forum.api('/api/admin/users', { token })).status).toBe(403);
    expect((await forum.api('/admin/realms/forum/users', { token })).status).toBe(403);
    // a member all the same: they can write
    expect((await forum.api('/api/posts', { method: 'POST', token, json: { title: 'Hello', description: 'A member writes.', tags: [] } })).status).toBe(201);
    const { id } = (await forum.realm!.accounts.findByEmail(email))!;
    expect(await userEvents(id)).toEqual([
      ['UserRegistered', undefined],
      ['PostAuthored', undefined],
    ]);

    expect((await fetch(await mailLinkFor(harness(), email, 'verify-email'))).status).toBe(200);
    // the old token still says email_verified: false, so nothing changes with it ...
    expect(await roleOf(token)).toBe('user');
    // ... a new one (refresh, or sign-in) vouches for the address: reads answer the admin the write side makes of it, appending nothing
    const verified = await freshToken(email);
    expect(await roleOf(verified)).toBe('admin');
    expect((await forum.api('/api/admin/stats', { token: verified })).status).toBe(200);
    expect((await forum.api('/admin/realms/forum/users', { token: verified })).status).toBe(200);
    expect(await userEvents(id)).toEqual([
      ['UserRegistered', undefined],
      ['PostAuthored', undefined],
    ]);
    // the apps' registration call after the sign-in records it, once
    await forum.register(verified);
    expect(await userEvents(id)).toEqual([
      ['UserRegistered', undefined],
      ['PostAuthored', undefined],
      ['AdminRoleGranted', 'admin-emails'],
      ['HandleChanged', undefined],
    ]);
    await forum.register(verified);
    expect(await roleOf(verified)).toBe('admin');
    expect(await userEvents(id)).toHaveLength(4);
  });

  it('becomes admin at its next command too (an admin command works as the first request after verification)', async () => {
    const email = 'second-boss@forum.test';
    const token = await register(email);
    expect((await forum.api('/api/admin/tags', { method: 'POST', token, json: { name: 'Not yet' } })).status).toBe(403);
    await fetch(await mailLinkFor(harness(), email, 'verify-email'));
    const added = await forum.api('/api/admin/tags', { method: 'POST', token: await freshToken(email), json: { name: 'Boss tag' } });
    expect(added.status).toBe(201);
  });

  it('registered unverified under another spelling of a listed address (Third-Boss@Forum.test.) is no admin either', async () => {
    const token = await register('third-boss@forum.test');
    expect(await roleOf(token)).toBe('user');
  });
});
