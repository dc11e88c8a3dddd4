import { randomBytes } from 'node:crypto';
import { HEADER_MIN_POSITION, type AuditPage } from '@forum/contracts';
import { keycloakIdentityAdmin } from '@forum/command-service';
import { embeddedIdentityAdmin } from '../embedded/realm.ts';
import { runForumctl } from '../ops/forumctl.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { waitFor } from '@forum/platform/testing';

/**
 * A disabled or deleted account's still-valid token is refused at once, on
 * reads and writes. The realm's admin API tells the forum before it changes the account, and
 * answers once the read side refuses the token too (docs/security/erasure.md).
 */
let forum: TestForum;
let admin: { id: string; token: string };

beforeAll(async () => {
  // no browser signs out here: the realm's account goes at once
  forum = await startTestForum({ IDENTITY_REMOVAL_GRACE_MS: '0' });
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const PASSWORD = 'Secret#2026';

async function account(signIn = true, emailVerified = false) {
  const email = `access-${randomBytes(4).toString('hex')}@forum.test`;
  const { id } = await forum.realm!.accounts.create({ email, password: PASSWORD, name: 'Access Tester', emailVerified });
  return { id, email, token: signIn ? await forum.tokenFor(email, PASSWORD) : '' };
}

/** The realm's Keycloak-shaped admin API, as the demo admin. */
const realmAdmin = (id: string, method: 'PUT' | 'DELETE', json?: unknown, token = admin.token) =>
  forum.api(`/admin/realms/forum/users/${id}`, { method, token, json });

const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
const post = (token: string) => forum.api('/api/posts', { method: 'POST', token, json: { title: 'Still here?', description: 'Trying.', tags: [] } });
const passwordGrant = (email: string) =>
  fetch(`${forum.url.replace('localhost', '127.0.0.1')}/realms/forum/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password: PASSWORD, scope: 'openid' }),
  });

describe('an account disabled through the realm', () => {
  it('refuses its still-valid token at once with 401 ACCOUNT_DISABLED, on a write and a member read, and lets it in again once enabled', async () => {
    const member = await account();
    expect((await forum.api('/api/me', { token: member.token })).status).toBe(200);
    expect((await post(member.token)).status).toBe(201);

    expect((await realmAdmin(member.id, 'PUT', { enabled: false })).status).toBe(204);
    const write = await post(member.token);
    expect(write.status).toBe(401);
    expect(await errorCode(write)).toBe('ACCOUNT_DISABLED');
    const me = await forum.api('/api/me', { token: member.token });
    expect(me.status).toBe(401);
    expect(await errorCode(me)).toBe('ACCOUNT_DISABLED');
    expect((await forum.api('/api/my-posts/' + member.email, { token: member.token })).status).toBe(401);
    expect((await passwordGrant(member.email)).status).toBe(400);

    expect((await realmAdmin(member.id, 'PUT', { enabled: true })).status).toBe(204);
    expect((await forum.api('/api/me', { token: member.token })).status).toBe(200);
    expect((await post(member.token)).status).toBe(201);

    const { events } = await forum.store.readStream(`user-${member.id}`);
    expect(events.map((e) => e.type).filter((type) => type.startsWith('Account'))).toEqual(['AccountDisabled', 'AccountEnabled']);
    expect(events.find((e) => e.type === 'AccountDisabled')!.metadata.actorId).toBe(admin.id);
    const audit = (await (await forum.api('/api/admin/audit?type=AccountDisabled', { token: admin.token })).json()) as AuditPage;
    expect(audit.entries).toEqual([expect.objectContaining({ target: { type: 'user', id: member.id }, summary: 'Disabled the account of Access Tester' })]);
  });

  it('refuses the token of an account disabled before the forum ever saw it, without registering it', async () => {
    const member = await account();
    expect((await realmAdmin(member.id, 'PUT', { enabled: false })).status).toBe(204);
    expect((await forum.api('/api/me', { token: member.token })).status).toBe(401);
    expect((await post(member.token)).status).toBe(401);
    const { events } = await forum.store.readStream(`user-${member.id}`);
    expect(events.map((e) => e.type)).toEqual(['AccountDisabled']);
  });

  it('refuses bad calls and changes nothing: not an admin 403, no such account 404, enabled not a boolean 400', async () => {
    const member = await account();
    const other = await account();
    await forum.register(other.token);
    const before = await forum.eventCount();
    expect((await realmAdmin(member.id, 'PUT', { enabled: false }, other.token)).status).toBe(403);
    expect((await realmAdmin('00000000-0000-4000-8000-000000000000', 'PUT', { enabled: false })).status).toBe(404);
    expect((await realmAdmin(member.id, 'PUT', { enabled: 'no' })).status).toBe(400);
    expect((await realmAdmin(member.id, 'DELETE', undefined, other.token)).status).toBe(403);
    expect(await forum.eventCount()).toBe(before);
    expect((await forum.api('/api/me', { token: member.token })).status).toBe(200);
  });
});

describe('an account an external identity provider disabled (forumctl account)', () => {
  it('is refused on writes at once and on reads once the read side has the event; enabled again, it is let in', async () => {
    const member = await account();
    expect((await forum.api('/api/me', { token: member.token })).status).toBe(200);
    const ctl = async (...args: string[]) => {
      let out = '';
      const code = await runForumctl(args, forum.databaseUrl, { out: (t) => (out += t), err: (t) => (out += t) });
      return { code, out, position: /event at (\S+),/.exec(out)?.[1] };
    };
    const disabled = await ctl('account', 'disable', member.id);
    expect(disabled.code, disabled.out).toBe(0);
    expect((await post(member.token)).status).toBe(401);
    expect((await forum.api('/api/me', { token: member.token, headers: { [HEADER_MIN_POSITION]: disabled.position! } })).status).toBe(401);
    expect((await ctl('account', 'disable', member.id)).out).toContain('was disabled already');
    const enabled = await ctl('account', 'enable', member.id);
    expect((await forum.api('/api/me', { token: member.token, headers: { [HEADER_MIN_POSITION]: enabled.position! } })).status).toBe(200);
    expect((await ctl('account', 'pause', member.id)).code).toBe(2);
  });
});

describe('an account deleted through the realm', () => {
  it('is erased by the forum first (its posts kept, by Deleted user), then gone from the realm; its token refused', async () => {
    const member = await account();
    const created = (await (await post(member.token)).json()) as { id: string; position: string };
    expect((await realmAdmin(member.id, 'DELETE')).status).toBe(204);
    expect(await forum.realm!.accounts.findByEmail(member.email)).toBeNull();
    const { events } = await forum.store.readStream(`user-${member.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'AccountErased', data: { content: 'kept' }, metadata: { actorId: admin.id } });
    expect((await forum.api('/api/me', { token: member.token })).status).toBe(401);
    expect((await post(member.token)).status).toBe(401);
    const shown = await forum.api(`/api/posts/${created.id}`, { headers: { [HEADER_MIN_POSITION]: created.position } });
    expect(await shown.json()).toMatchObject({ authorName: 'Deleted user' });
    // the reactor finds the realm's account gone already: done
    await waitFor(
      async () =>
        (await forum.db.raw<{ rows: { done: boolean }[] }>('SELECT realm_removed_at IS NOT NULL AS done FROM keystore.erasures WHERE subject = ?', [member.id]))
          .rows[0]?.done,
      (done) => done === true,
    );
  });
});

describe('the identity-admin port against a Keycloak-shaped admin API (the embedded realm offers one)', () => {
  it('removes an account with DELETE …/users/{id}, and counts one that is gone already as removed; a refusal is an error', async () => {
    const member = await account(false);
    const port = keycloakIdentityAdmin({
      adminUrl: `${forum.url.replace('localhost', '127.0.0.1')}/admin/realms/forum`,
      token: () => Promise.resolve(admin.token),
    });
    await port.removeAccount(member.id);
    expect(await forum.realm!.accounts.findByEmail(member.email)).toBeNull();
    await port.removeAccount(member.id);
    const other = await account();
    const refused = keycloakIdentityAdmin({
      adminUrl: `${forum.url.replace('localhost', '127.0.0.1')}/admin/realms/forum`,
      token: () => Promise.resolve(other.token),
    });
    await expect(refused.removeAccount(member.id)).rejects.toThrow('answered 403');
  });

  it("tells whether an account's address is verified with GET …/users/{id} (emailVerified); an account not there is not; a refusal is an error", async () => {
    const adminUrl = `${forum.url.replace('localhost', '127.0.0.1')}/admin/realms/forum`;
    const port = keycloakIdentityAdmin({ adminUrl, token: () => Promise.resolve(admin.token) });
    const unverified = await account(false);
    const { id: verified } = await account(false, true);
    expect(await port.emailVerified(verified)).toBe(true);
    expect(await port.emailVerified(unverified.id)).toBe(false);
    expect(await port.emailVerified(crypto.randomUUID())).toBe(false);
    expect(await port.emailVerified('not-an-account')).toBe(false);
    const other = await account();
    const refused = keycloakIdentityAdmin({ adminUrl, token: () => Promise.resolve(other.token) });
    await expect(refused.emailVerified(verified)).rejects.toThrow('answered 403');
  });
});

describe('the identity-admin port on the embedded realm, in process', () => {
  it("tells whether an account's address is verified, as the realm has it", async () => {
    const port = embeddedIdentityAdmin(forum.realm!);
    const unverified = await account(false);
    const { id: verified } = await account(false, true);
    expect(await port.emailVerified(verified)).toBe(true);
    expect(await port.emailVerified(unverified.id)).toBe(false);
    expect(await port.emailVerified('not-an-account')).toBe(false);
  });
});
