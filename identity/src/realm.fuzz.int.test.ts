import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileString, urlEncoded } from '@forum/platform/testing';
import { ONE_PROXY, randomAddress, startHarness, type Harness } from './test-support.ts';

/**
 * Generated hostile input to the realm's doors a stranger reaches without a session: the password
 * grant, the authorization endpoint, revocation and introspection, the forgot-password and
 * registration links, the one-time links, the admin API's search.
 * Whatever arrives, never a 5xx. FUZZ_RUNS scales the cases as in the API's fuzz suite.
 */
const RUNS = Math.max(50, Math.ceil(Number(process.env.FUZZ_RUNS ?? 2_000) / 8));
/** Each case is a real HTTP request (a sign-in checks a password): 250 of them took up to 30 s on 2 cores shared with other runs. */
const CASES = { timeout: RUNS * 400 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ trustProxy: ONE_PROXY });
});
afterAll(() => h?.close());

const field = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constantFrom('alice@forum.local', 'Forum#2026', '') });
const expectNo5xx = (response: Response, what: string) => expect(response.status, what).toBeLessThan(500);

describe("the realm's open doors under generated hostile input", () => {
  it('the password grant: username, password and scope', CASES, async () => {
    await fc.assert(
      fc.asyncProperty(field, field, fc.option(hostileString), async (username, password, scope) => {
        const response = await fetch(`${h.issuer}/protocol/openid-connect/token`, {
          method: 'POST',
          headers: { 'x-forwarded-for': randomAddress() },
          body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username, password, ...(scope !== null && { scope }) }),
        });
        expectNo5xx(response, JSON.stringify([username.slice(0, 40), password.slice(0, 40)]));
      }),
      { numRuns: RUNS },
    );
  });

  it('the authorization and token endpoints: a client id with a NUL is an unknown client, not a 500', async () => {
    const auth = await fetch(`${h.issuer}/protocol/openid-connect/auth?client_id=%00&redirect_uri=javascript:alert(1)&response_type=code`, {
      redirect: 'manual',
    });
    expect(auth.status).toBe(400);
    const token = await fetch(`${h.issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'forum\u0000cli', username: 'alice@forum.local', password: 'x' }),
    });
    expect(token.status).toBeGreaterThanOrEqual(400);
    expect(token.status).toBeLessThan(500);
  });

  it('the authorization endpoint: client id, redirect, response type, scope, state and prompt', CASES, async () => {
    const params = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'prompt', 'code_challenge', 'nonce'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...params), hostileString.map(urlEncoded), async (name, value) => {
        const query = new URLSearchParams({ client_id: 'forum-web', redirect_uri: 'http://localhost:3000/', response_type: 'code', scope: 'openid' });
        const url = `${h.issuer}/protocol/openid-connect/auth?${query.toString().replace(new RegExp(`${name}=[^&]*`), '')}&${name}=${value}`;
        expectNo5xx(await fetch(url, { headers: { 'x-forwarded-for': randomAddress() }, redirect: 'manual' }), `${name}=${value.slice(0, 60)}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('revocation and introspection: token, hint, client and its credentials', CASES, async () => {
    const endpoints = ['/protocol/openid-connect/revoke', '/protocol/openid-connect/token/introspect'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        field,
        fc.option(hostileString),
        fc.option(field),
        fc.option(hostileString),
        async (endpoint, token, hint, clientId, authorization) => {
          const response = await fetch(`${h.issuer}${endpoint}`, {
            method: 'POST',
            headers: authorization === null ? {} : { authorization: `Basic ${Buffer.from(authorization).toString('base64')}` },
            body: new URLSearchParams({ token, ...(hint !== null && { token_type_hint: hint }), ...(clientId !== null && { client_id: clientId }) }),
          });
          expectNo5xx(response, JSON.stringify([endpoint, token.slice(0, 40), clientId?.slice(0, 40)]));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the links a stranger can open: forgot password, one-time keys, the admin search', CASES, async () => {
    const pages = [
      '/login-actions/reset-credentials?email=',
      '/login-actions/action-token?key=',
      '/login-actions/verify-email?key=',
      '/login-actions/registration?interaction=',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pages), hostileString.map(urlEncoded), async (page, value) => {
        expectNo5xx(
          await fetch(`${h.issuer}${page}${value}`, { headers: { 'x-forwarded-for': randomAddress() }, redirect: 'manual' }),
          `${page}${value.slice(0, 60)}`,
        );
        expectNo5xx(
          await fetch(`${h.origin}/admin/realms/forum/users?email=${value}`, { headers: { Authorization: `Bearer ${value.slice(0, 100)}` } }),
          `admin search ${value.slice(0, 60)}`,
        );
      }),
      { numRuns: RUNS },
    );
  });
});
