import { randomBytes } from 'node:crypto';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReplicatedForum, type TestReplicatedForum } from '../testing/replicated.ts';

/**
 * The embedded realm's admin API from the command services of the replicated layout, signed in as
 * the realm's service account that the composition makes at each start (docs/replicated.md), as
 * they would with a Keycloak: calls addressed by email find the account an email names, and an
 * erased member's account leaves the realm.
 */
let test: TestReplicatedForum;
const adminEmail = `ada-${randomBytes(4).toString('hex')}@forum.test`;

beforeAll(async () => {
  test = await startTestReplicatedForum(
    { command: 1, query: 1, projections: 1 },
    { ADMIN_EMAILS: adminEmail, PAYMENT_DEMO_DELAY_MS: '50', IDENTITY_REMOVAL_GRACE_MS: '0' },
  );
}, 180_000);
afterAll(async () => {
  await test?.stop();
}, 60_000);

const call = (path: string, token: string, init: { method: string; json?: unknown }) =>
  fetch(`${test.base}${path}`, {
    method: init.method,
    headers: { Authorization: `Bearer ${token}`, ...(init.json !== undefined && { 'Content-Type': 'application/json' }) },
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
  });
const types = async (stream: string) => (await test.forum.store.readStream(stream)).events.map((event) => event.type);

describe('calls by email through the command services', () => {
  it("an admin warns a member by their email, and buys Gold membership for another member's email", async () => {
    const admin = await test.newUser('Ada', { email: adminEmail, emailVerified: true });
    const member = await test.newUser('Mel');
    const other = await test.newUser('Oli');

    const warned = await call(`/api/admin/warn-user/${encodeURIComponent(member.email.toUpperCase())}`, admin.token, {
      method: 'POST',
      json: { reason: 'Please stay polite' },
    });
    expect(warned.status, await warned.clone().text()).toBe(201);
    expect(await types(`notifications-${member.id}`)).toEqual(['UserWarned']);

    const bought = await call(`/api/users/membership/${encodeURIComponent(other.email)}`, admin.token, { method: 'PATCH' });
    expect(bought.status, await bought.clone().text()).toBe(200);
    expect(await types(`user-${other.id}`)).toEqual(['UserRegistered', 'HandleChanged', 'MembershipPurchaseStarted', 'MembershipPurchased']);

    // an address the realm does not hold names no one
    const nobody = await call(`/api/admin/warn-user/nobody-${randomBytes(4).toString('hex')}@forum.test`, admin.token, { method: 'POST', json: {} });
    expect(nobody.status).toBe(404);
  });

  it("an erased member's account leaves the realm (the command service's erasure reactor)", async () => {
    const member = await test.newUser('Eve');
    const erased = await call('/api/me', member.token, { method: 'DELETE', json: { content: 'keep' } });
    expect(erased.status, await erased.clone().text()).toBe(200);
    await waitFor(
      () => test.forum.realm!.accounts.findByEmail(member.email),
      (account) => account === null,
    );
  });

  it("the service account's token is for the realm's admin API only: the forum's API refuses it", async () => {
    const client = test.forum.identityAdminClient!;
    const answer = await fetch(`${test.base}/realms/forum/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret }),
    });
    expect(answer.status).toBe(200);
    const { access_token: token } = (await answer.json()) as { access_token: string };
    const users = await fetch(`${test.base}/admin/realms/forum/users?max=1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(users.status).toBe(200);

    const post = await call('/api/posts', token, { method: 'POST', json: { title: 'From a machine', description: 'Not a member', tags: [] } });
    expect(post.status).toBe(401);
    expect((await call('/api/me', token, { method: 'GET' })).status).toBe(401);
    expect((await call('/api/me/registration', token, { method: 'POST' })).status).toBe(401);
  });
});
