import { createTokenVerifier } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { PASSWORD, address, BREAKING, tokenFor, useAccountsRealm } from './flows-test-support.ts';
import { AUDIENCE, uniqueEmail, type Harness } from './test-support.ts';

let h: Harness;
useAccountsRealm((started) => (h = started));

describe('admin API (Keycloak layout)', () => {
  const users = () => `${h.origin}/admin/realms/forum/users`;
  const post = (token: string | null, body: unknown) =>
    fetch(users(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const representation = (email: string, password: string, extra: Record<string, unknown> = {}) => ({
    username: email,
    email,
    firstName: 'Scripted',
    lastName: 'User',
    enabled: true,
    emailVerified: true,
    credentials: [{ type: 'password', value: password, temporary: false }],
    ...extra,
  });

  it('needs the bearer token of a realm admin', async () => {
    expect((await post(null, representation(uniqueEmail('x'), PASSWORD))).status).toBe(401);
    expect((await post('not.a.token', representation(uniqueEmail('x'), PASSWORD))).status).toBe(401);
    const user = await post(await tokenFor(h, 'alice@forum.local'), representation(uniqueEmail('x'), PASSWORD));
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({ error: 'HTTP 403 Forbidden' });
  });

  it('creates an account (201 + Location) that signs in; policy errors, duplicates and lookups like Keycloak', async () => {
    const token = await tokenFor(h, 'admin@forum.local');
    const email = uniqueEmail('scripted');
    for (const [i, { password, message }] of BREAKING.entries()) {
      const res = await post(token, representation(email, password));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; errorMessage: string };
      expect(body.errorMessage).toBe(message);
      expect(body.error).toBe(
        [
          'invalidPasswordMinLengthMessage',
          'invalidPasswordMinUpperCaseCharsMessage',
          'invalidPasswordMinLowerCaseCharsMessage',
          'invalidPasswordMinSpecialCharsMessage',
        ][i],
      );
    }
    const created = await post(token, representation(email, PASSWORD, { attributes: { picture: ['https://example.test/s.png'] } }));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${h.origin}/admin/realms/forum/users/[0-9a-f-]{36}$`));

    const duplicate = await post(token, representation(email.toUpperCase(), PASSWORD));
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ errorMessage: 'User exists with same email' });

    const verify = createTokenVerifier({ issuer: h.issuer, audience: AUDIENCE });
    expect(await verify(await tokenFor(h, email))).toMatchObject({ email, name: 'Scripted User', picture: 'https://example.test/s.png', roles: ['user'] });

    const found = await fetch(`${users()}?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(found.status).toBe(200);
    const list = (await found.json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: location.split('/').at(-1), username: email, email, enabled: true, emailVerified: true, firstName: 'Scripted User' });
    const none = await fetch(`${users()}?email=${encodeURIComponent(uniqueEmail('nobody'))}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await none.json()).toEqual([]);
    const one = await fetch(location, { headers: { authorization: `Bearer ${token}` } });
    expect(((await one.json()) as { email: string }).email).toBe(email);

    // Keycloak makes a user without `enabled: true` disabled
    const disabled = uniqueEmail('disabled');
    expect((await post(token, representation(disabled, PASSWORD, { enabled: undefined }))).status).toBe(201);
    const refused = await h.passwordGrant(disabled, PASSWORD, { 'x-forwarded-for': address() });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_description: string }).error_description).toBe('Account disabled');
  });

  it('fits a long name to the name policy by characters (an emoji is never cut in half)', async () => {
    const token = await tokenFor(h, 'admin@forum.local');
    for (const [firstName, kept] of [
      ['😀'.repeat(60), `${'😀'.repeat(60)} ${'🎉'.repeat(39)}`],
      [`A${'😀'.repeat(60)}`, `A${'😀'.repeat(60)} ${'🎉'.repeat(38)}`],
    ]) {
      const email = uniqueEmail('emoji');
      const created = await post(token, representation(email, PASSWORD, { firstName, lastName: '🎉'.repeat(60) }));
      expect(created.status, await created.clone().text()).toBe(201);
      const found = await fetch(`${users()}?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${token}` } });
      const [user] = (await found.json()) as Array<{ firstName: string }>;
      expect(user!.firstName).toBe(kept);
    }
  });

  it('refuses a picture the forum would not show (error-invalid-uri)', async () => {
    const token = await tokenFor(h, 'admin@forum.local');
    for (const picture of ['http://example.test/p.png', `${h.origin}/p.png`]) {
      const res = await post(token, representation(uniqueEmail('photo'), PASSWORD, { attributes: { picture: [picture] } }));
      expect(res.status, picture).toBe(400);
      expect(await res.json()).toMatchObject({ field: 'picture', error: 'error-invalid-uri' });
    }
  });

  it('PUT …/users/{id} writes the attribute handle (the forum’s copy, its rules): GET shows it and the next token carries it as `handle`', async () => {
    const token = await tokenFor(h, 'admin@forum.local');
    const email = uniqueEmail('handle');
    const created = await post(token, representation(email, PASSWORD));
    const url = created.headers.get('location')!;
    const put = (body: unknown) =>
      fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    expect((await put({ attributes: { handle: ['scripted.user'] } })).status).toBe(204);
    const read = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      attributes: Record<string, string[]>;
      enabled: boolean;
    };
    expect(read).toMatchObject({ attributes: { handle: ['scripted.user'] }, enabled: true });
    const verify = createTokenVerifier({ issuer: h.issuer, audience: AUDIENCE });
    expect(await verify(await tokenFor(h, email))).toMatchObject({ handle: 'scripted.user' });
    const refused = await put({ attributes: { handle: ['no way'] } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      field: 'handle',
      errorMessage: 'Handle may use letters a-z, digits and _, with single . or - between them (not first or last)',
    });
    expect((await put({ attributes: { handle: 'not-a-list' } })).status).toBe(400);
  });
});
