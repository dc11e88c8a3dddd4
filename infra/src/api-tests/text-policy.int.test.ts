import { request } from 'node:http';
import { ErrorCode, PAGE_MAX, type ErrorBody } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * Text is text (docs/security/text-policy.md): every read that takes text refuses NUL, lone
 * surrogates, direction overrides where they impersonate and invisible-only values with 400, the
 * error body and a stable code, and appends nothing; never a 500. The commands' fields, paths,
 * bodies and media types are the route tests' (command-service/src/http/*.route.test.ts).
 */
let forum: TestForum;
let admin: { id: string; token: string };
let member: NewUser;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
  member = await forum.newUser('Mia Member');
  await forum.register(member.token);
}, 60_000);
afterAll(() => forum?.stop());

/** A request as it goes on the wire: `body` is sent byte for byte (a string as UTF-8). */
function send(method: string, path: string, { token, body }: { token?: string; body?: string } = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = request({ host: '127.0.0.1', port: forum.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends the request and expects 400 VALIDATION_FAILED with the error body, and no event appended. */
async function refused(method: string, path: string, options: Parameters<typeof send>[2] = {}) {
  const before = await forum.eventCount();
  const answer = await send(method, path, options);
  expect(answer.status, `${method} ${path} ${String(options.body ?? '')}`).toBe(400);
  const { error } = JSON.parse(answer.text) as ErrorBody;
  expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
  expect(error.message).toEqual(expect.any(String));
  expect(await forum.eventCount()).toBe(before);
  return error;
}

const HOSTILE = {
  NUL: 'a\u0000b',
  'a lone surrogate': 'a\ud800b',
  'only zero-width spaces': '\u200b\u200b',
  'a right-to-left override': 'evil\u202egnp.exe',
} as const;
const contactMessage = { name: 'Vera', email: 'vera@example.com', message: 'Hello' };
const memberToken = () => member.token;
const adminToken = () => admin.token;
describe('every read that takes text refuses hostile text in its query and path', () => {
  const q = (value: string) => encodeURIComponent(value);
  const READS: [string, () => string, (() => string) | undefined][] = [
    ['search by words', () => `/api/posts/search?q=`, undefined],
    ['search by tag', () => `/api/posts/search?tag=`, undefined],
    ['the admin user search', () => `/api/admin/users?search=`, adminToken],
    ['the admin user search of react-admin', () => `/api/admin/users?range=${q('[0,9]')}&filter=`, adminToken],
    ['the staff action log by actor', () => `/api/admin/audit?actor=`, adminToken],
    ['a user profile by email', () => `/api/user-profile/`, memberToken],
    ['my posts by email', () => `/api/my-posts/`, memberToken],
    ['a post count by email', () => `/api/user-post-count/`, memberToken],
    ['the admin check by email', () => `/api/users/admin/`, memberToken],
    ['a post by id', () => `/api/posts/`, undefined],
    ['comments by post id', () => `/api/comments/`, undefined],
    ['a history by id', () => `/api/admin/history/user/`, adminToken],
  ];
  const filter = (value: string) => q(JSON.stringify({ q: value }));
  const cases = READS.flatMap(([name, path, token]) =>
    (['NUL', 'only zero-width spaces', 'a right-to-left override', 'a lone surrogate'] as const).map((hostile) => [name, hostile, path, token] as const),
  );
  it.each(cases)('%s: %s → 4xx with the error body', async (name, hostile, path, token) => {
    // a URL cannot carry a lone surrogate: its nearest form is the invalid UTF-8 of one, %ED%A0%80
    const value = hostile === 'a lone surrogate' ? 'a%ED%A0%80b' : name.endsWith('react-admin') ? filter(HOSTILE[hostile]) : q(HOSTILE[hostile]);
    const email = name.endsWith('by email') && hostile !== 'a lone surrogate' ? q(`${HOSTILE[hostile]}@example.com`) : value;
    const tokenOf = token?.();
    // a search by words may hold a direction override (it is free text); only what cannot be text is refused there
    if (hostile === 'a right-to-left override' && (name === 'search by words' || name.startsWith('the admin user search') || name.startsWith('the staff'))) {
      expect((await send('GET', `${path()}${value}`, { token: tokenOf })).status).toBe(200);
      return;
    }
    await refused('GET', `${path()}${email}`, { token: tokenOf });
  });

  it('a query parameter sent twice is refused with 400, not read as a list', async () => {
    for (const path of ['/api/posts/search?q=a&q=b', '/api/posts/search?tag=Safe&tag=Safe', '/api/posts?page=1&page=2', '/api/posts?sort=newest&sort=newest']) {
      await refused('GET', path);
    }
    const error = await refused('GET', '/api/admin/users?search=a&search=b', { token: admin.token });
    expect(error.details).toEqual({ search: ['Search must be sent once'] });
  });
});

describe('an address the realm accepts is an address to the API too', () => {
  it.each(['jösé@example.com', 'ann@bücher.de', 'ann@mail.localhost'])(
    'an account at %s reads its own profile by email and may send the contact form from it',
    async (address) => {
      const [local, domain] = address.split('@');
      const email = `${local}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
      const password = 'Secret#2026';
      await forum.realm!.accounts.create({ email, password, name: 'Una Unicode' });
      const token = await forum.tokenFor(email, password);
      // registered with the forum, as the apps register after sign-in
      expect((await forum.register(token)).email).toBe(email);
      const profile = await send('GET', `/api/user-profile/${encodeURIComponent(email)}`, { token });
      expect(profile.status, profile.text).toBe(200);
      expect((JSON.parse(profile.text) as { user: { email?: string } }).user.email).toBe(email);
      const contact = await send('POST', '/api/contact', { body: JSON.stringify({ ...contactMessage, email }) });
      expect([200, 201], contact.text).toContain(contact.status);
    },
  );
});

describe('an address the realm refuses is refused by the API too (#39 edge 3)', () => {
  it.each(['ann@localhost', 'a@b'])('%s: no account, no profile, no contact message', async (email) => {
    await expect(forum.realm!.accounts.create({ email, password: 'Secret#2026', name: 'Ann Nowhere' })).rejects.toMatchObject({
      fieldErrors: { email: [expect.any(String)] },
    });
    const profile = await refused('GET', `/api/user-profile/${encodeURIComponent(email)}`, { token: member.token });
    expect(Object.keys(profile.details as object)).toEqual(['email']);
    const contact = await refused('POST', '/api/contact', { body: JSON.stringify({ ...contactMessage, email }) });
    expect(contact.details).toEqual({ email: ['Not a valid email address'] });
  });
});

describe('row 8: pages are bounded', () => {
  it.each([
    '/api/admin/users?page=2147483648',
    `/api/admin/users?page=${PAGE_MAX + 1}`,
    '/api/admin/contact-messages?page=2147483648',
    '/api/admin/audit?page=2147483648',
  ])('GET %s → 400 VALIDATION_FAILED on page', async (path) => {
    const error = await refused('GET', path, { token: admin.token });
    expect(error.details).toEqual({ page: [`Page must be at most ${PAGE_MAX}`] });
  });

  it.each(['/api/posts?page=2147483648', '/api/posts/search?tag=Safe&page=2147483648', '/api/posts/search?q=post&page=99999999999'])(
    'GET %s → 400',
    async (path) => {
      await refused('GET', path);
    },
  );

  it('react-admin ranges are bounded as pages are', async () => {
    await refused('GET', `/api/admin/users?range=${encodeURIComponent('[2147483648,2147483650]')}`, { token: admin.token });
  });

  it(`the deepest page, ${PAGE_MAX}, answers an empty page`, async () => {
    const answer = await send('GET', `/api/admin/users?page=${PAGE_MAX}`, { token: admin.token });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ users: [] });
    expect((await send('GET', `/api/posts?page=${PAGE_MAX}`)).status).toBe(200);
  });
});
