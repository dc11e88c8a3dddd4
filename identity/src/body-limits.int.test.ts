import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordTokens, startHarness, type Harness } from './test-support.ts';

/**
 * A body larger than the realm reads answers 413 and says so, on the protocol's endpoints and on
 * the admin API alike; a small body that cannot be read keeps its 400 and its parse message.
 */
const PASSWORD = 'Forum#2026';
const TWENTY_MB = 20 * 1024 * 1024;
const TOO_LARGE = 'The request body is too large.';

let h: Harness;
let adminToken: string;
beforeAll(async () => {
  h = await startHarness();
  await h.realm.accounts.create({ email: 'admin@forum.local', password: PASSWORD, name: 'Admin', roles: ['admin'], emailVerified: true });
  adminToken = (await passwordTokens(h, 'admin@forum.local', PASSWORD)).access_token;
});
afterAll(() => h?.close());

const form = (size: number) => `grant_type=password&client_id=forum-cli&username=a&password=${'x'.repeat(size)}`;
/** The same bytes sent chunked, without a Content-Length (the realm learns the size only by reading). */
const chunked = (body: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += 1024 * 1024) controller.enqueue(bytes.subarray(at, at + 1024 * 1024));
      controller.close();
    },
  });
const post = (path: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  fetch(`${h.origin}${path}`, { method: 'POST', headers, body, ...(typeof body === 'string' ? {} : { duplex: 'half' }) });

const TOKEN = '/realms/forum/protocol/openid-connect/token';
const URLENCODED = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the token endpoint', () => {
  it('answers a 20 MB body 413 with a message saying it is too large, with or without a Content-Length', async () => {
    for (const body of [form(TWENTY_MB), chunked(form(TWENTY_MB))]) {
      const res = await post(TOKEN, body, URLENCODED);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: 'invalid_request', error_description: TOO_LARGE });
    }
  });

  it('keeps 400 and its message for a small body it cannot take (not a form)', async () => {
    const res = await post(TOKEN, '{"grant_type":"password"}', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'only application/x-www-form-urlencoded content-type bodies are supported on POST /protocol/openid-connect/token',
    });
  });

  it('answers a 20 MB body to a page of the provider (the logout confirmation) 413 with a page that says so', async () => {
    const res = await post('/realms/forum/protocol/openid-connect/logout/confirm', `logout=yes&xsrf=${'x'.repeat(TWENTY_MB)}`, {
      ...URLENCODED,
      accept: 'text/html',
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain(TOO_LARGE);
  });
});

describe('the admin API', () => {
  const users = '/admin/realms/forum/users';
  const asAdmin = () => ({ authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' });

  it('answers a 20 MB body 413 with a message saying it is too large (create and update)', async () => {
    const huge = JSON.stringify({ email: 'big@forum.local', firstName: 'x'.repeat(TWENTY_MB) });
    const admin = (await h.realm.accounts.findByEmail('admin@forum.local'))!;
    for (const [method, path] of [
      ['POST', users],
      ['PUT', `${users}/${admin.id}`],
    ] as const) {
      const res = await fetch(`${h.origin}${path}`, { method, headers: asAdmin(), body: huge });
      expect(res.status, method).toBe(413);
      expect(await res.json()).toEqual({ error: 'invalid_request', errorMessage: TOO_LARGE });
    }
  });

  it('keeps 400 "The body is not valid JSON" for a small body that is not JSON', async () => {
    const res = await fetch(`${h.origin}${users}`, { method: 'POST', headers: asAdmin(), body: '{"email":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'unknown_error', errorMessage: 'The body is not valid JSON' });
  });
});
