import { request } from 'node:http';
import { ErrorCode, PAGE_MAX, type ErrorBody } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * Text is text (docs/security/text-policy.md): every command and read that takes text refuses
 * NUL, lone surrogates, direction overrides where they impersonate and invisible-only values
 * with 400, the error body and a stable code, and appends nothing; never a 500.
 */
let forum: TestForum;
let admin: { id: string; token: string };
let member: NewUser;
let postId: string;
let commentId: string;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
  member = await forum.newUser('Mia Member');
  await forum.api('/api/me', { token: member.token });
  await forum.api('/api/admin/tags', { method: 'POST', token: admin.token, json: { name: 'Safe' } });
  const post = await forum.api('/api/posts', { method: 'POST', token: member.token, json: { title: 'A post', description: 'To comment on', tags: ['Safe'] } });
  postId = ((await post.json()) as { id: string }).id;
  const comment = await forum.api('/api/comments', { method: 'POST', token: member.token, json: { postId, text: 'A comment' } });
  commentId = ((await comment.json()) as { id: string }).id;
}, 60_000);
afterAll(() => forum?.stop());

/** A request as it goes on the wire: `body` is sent byte for byte (a string as UTF-8). */
function send(method: string, path: string, { token, body, type = 'application/json' }: { token?: string; body?: string | Buffer; type?: string } = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['Content-Type'] = type;
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

/** Sends the request and expects a 4xx with the error body and `code`, and no event appended. */
async function refused(method: string, path: string, options: Parameters<typeof send>[2] = {}, { status = 400, code = ErrorCode.VALIDATION_FAILED as string } = {}) {
  const before = await forum.eventCount();
  const answer = await send(method, path, options);
  expect(answer.status, `${method} ${path} ${String(options.body ?? '')}`).toBe(status);
  const { error } = JSON.parse(answer.text) as ErrorBody;
  expect(error.code).toBe(code);
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
type Hostile = keyof typeof HOSTILE;
const ALL = Object.keys(HOSTILE) as Hostile[];
/** Multi-line texts (a description, a comment) may hold direction controls: right-to-left writers use them. */
const BODY_TEXT: Hostile[] = ['NUL', 'a lone surrogate', 'only zero-width spaces'];

interface Command {
  readonly call: string;
  readonly method: string;
  readonly path: () => string;
  readonly token: () => string | undefined;
  readonly field: string;
  readonly body: (value: string) => unknown;
  readonly hostile: Hostile[];
}

const contactMessage = { name: 'Vera', email: 'vera@example.com', message: 'Hello' };
const memberToken = () => member.token;
const adminToken = () => admin.token;
const COMMANDS: Command[] = [
  ...(['name', 'email'] as const).map((field) => ({ call: 'POST /api/contact', method: 'POST', path: () => '/api/contact', token: () => undefined, field, body: (v: string) => ({ ...contactMessage, [field]: v }), hostile: ALL })),
  { call: 'POST /api/contact', method: 'POST', path: () => '/api/contact', token: () => undefined, field: 'message', body: (v) => ({ ...contactMessage, message: v }), hostile: BODY_TEXT },
  { call: 'POST /api/posts', method: 'POST', path: () => '/api/posts', token: memberToken, field: 'title', body: (v) => ({ title: v, description: 'd', tags: ['Safe'] }), hostile: ALL },
  { call: 'POST /api/posts', method: 'POST', path: () => '/api/posts', token: memberToken, field: 'description', body: (v) => ({ title: 't', description: v, tags: ['Safe'] }), hostile: BODY_TEXT },
  { call: 'POST /api/posts', method: 'POST', path: () => '/api/posts', token: memberToken, field: 'tags.0', body: (v) => ({ title: 't', description: 'd', tags: [v] }), hostile: ALL },
  { call: 'POST /api/comments', method: 'POST', path: () => '/api/comments', token: memberToken, field: 'text', body: (v) => ({ postId, text: v }), hostile: BODY_TEXT },
  { call: 'PATCH /api/me', method: 'PATCH', path: () => '/api/me', token: memberToken, field: 'displayName', body: (v) => ({ displayName: v }), hostile: ALL },
  { call: 'PATCH /api/me', method: 'PATCH', path: () => '/api/me', token: memberToken, field: 'photoURL', body: (v) => ({ photoURL: `https://img.example/${v}.png` }), hostile: ALL },
  { call: 'POST /api/admin/tags', method: 'POST', path: () => '/api/admin/tags', token: adminToken, field: 'name', body: (v) => ({ name: v }), hostile: ALL },
  { call: 'POST /api/admin/announcements', method: 'POST', path: () => '/api/admin/announcements', token: adminToken, field: 'title', body: (v) => ({ title: v, description: 'd' }), hostile: ALL },
  { call: 'POST /api/admin/announcements', method: 'POST', path: () => '/api/admin/announcements', token: adminToken, field: 'description', body: (v) => ({ title: 't', description: v }), hostile: BODY_TEXT },
  { call: 'POST /api/admin/warn-user/:authorEmail', method: 'POST', path: () => `/api/admin/warn-user/${member.email}`, token: adminToken, field: 'reason', body: (v) => ({ reason: v, commentId }), hostile: BODY_TEXT },
];

describe('every command that takes text refuses hostile text in each of its fields', () => {
  const cases = COMMANDS.flatMap((command) => command.hostile.map((hostile) => [command.call, command.field, hostile, command] as const));
  it.each(cases)('%s, %s: %s → 400 VALIDATION_FAILED on the field, nothing appended', async (_call, field, hostile, command) => {
    // JSON.stringify writes a lone surrogate as the escape \ud800: the server's JSON parser makes it a lone surrogate again
    const body = JSON.stringify(command.body(HOSTILE[hostile]));
    if (hostile === 'a lone surrogate') expect(body).toContain('\\ud800');
    const error = await refused(command.method, command.path(), { token: command.token(), body });
    expect(Object.keys(error.details as object)).toContain(field);
  });

  it('the same values within the policy are accepted (the refusals above are the text, not the call)', async () => {
    for (const command of COMMANDS) {
      const value = command.field === 'email' ? 'vera@example.com' : command.field === 'tags.0' ? 'Safe' : command.field === 'photoURL' ? 'ok' : `ok ${command.field}`;
      const answer = await send(command.method, command.path(), { token: command.token(), body: JSON.stringify(command.body(value)) });
      expect([200, 201], `${command.call} ${command.field}`).toContain(answer.status);
    }
  });

  it('a body that is not UTF-8 (the bytes of a lone surrogate, a stray 0xFF) is refused, not read with replacement characters', async () => {
    for (const bytes of [[0xed, 0xa0, 0x80], [0xff]]) {
      const body = Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bytes), Buffer.from('b","description":"d","tags":["Safe"]}')]);
      const error = await refused('POST', '/api/posts', { token: member.token, body });
      expect(error.message).toMatch(/UTF-8/);
      const contact = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes), Buffer.from('b","email":"v@example.com","message":"m"}')]);
      await refused('POST', '/api/contact', { body: contact });
    }
  });
});

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
  it.each(['jösé@example.com', 'ann@bücher.de', 'ann@mail.localhost'])('an account at %s reads its own profile by email and may send the contact form from it', async (address) => {
    const [local, domain] = address.split('@');
    const email = `${local}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
    const password = 'Secret#2026';
    await forum.realm!.accounts.create({ email, password, name: 'Una Unicode' });
    const token = await forum.tokenFor(email, password);
    expect((await forum.api('/api/me', { token })).status).toBe(200);
    const profile = await send('GET', `/api/user-profile/${encodeURIComponent(email)}`, { token });
    expect(profile.status, profile.text).toBe(200);
    expect((JSON.parse(profile.text) as { user: { email?: string } }).user.email).toBe(email);
    const contact = await send('POST', '/api/contact', { body: JSON.stringify({ ...contactMessage, email }) });
    expect([200, 201], contact.text).toContain(contact.status);
  });
});

describe('an address the realm refuses is refused by the API too (#39 edge 3)', () => {
  it.each(['ann@localhost', 'a@b'])('%s: no account, no profile, no contact message', async (email) => {
    await expect(forum.realm!.accounts.create({ email, password: 'Secret#2026', name: 'Ann Nowhere' })).rejects.toMatchObject({ fieldErrors: { email: [expect.any(String)] } });
    const profile = await refused('GET', `/api/user-profile/${encodeURIComponent(email)}`, { token: member.token });
    expect(Object.keys(profile.details as object)).toEqual(['email']);
    const contact = await refused('POST', '/api/contact', { body: JSON.stringify({ ...contactMessage, email }) });
    expect(contact.details).toEqual({ email: ['Not a valid email address'] });
  });
});

describe('path parameters of commands', () => {
  it.each([
    ['PATCH', '/api/admin/users/make-admin/%00'],
    ['PATCH', '/api/admin/users/make-admin/a%E2%80%8B'],
    ['PATCH', '/api/admin/users/make-admin/a%ED%A0%80'],
    ['POST', '/api/admin/warn-user/a%00b%40example.com'],
    ['PATCH', '/api/users/membership/a%00b%40example.com'],
    ['POST', '/api/admin/projections/%00/rebuild'],
    ['DELETE', '/api/my-posts/%00'],
    ['DELETE', '/api/admin/tags/%00'],
    ['DELETE', '/api/admin/comments/%00'],
    ['POST', '/api/comments/%00/report'],
    ['PUT', '/api/posts/%00/vote'],
  ])('%s %s → 400', async (method, path) => {
    const body = path.endsWith('/report') ? JSON.stringify({ feedback: 'spam' }) : path.endsWith('/vote') ? JSON.stringify({ vote: 'up' }) : undefined;
    await refused(method, path, { token: admin.token, body });
  });
});

describe('row 8: pages are bounded, bodiless calls take no body', () => {
  it.each(['/api/admin/users?page=2147483648', `/api/admin/users?page=${PAGE_MAX + 1}`, '/api/admin/contact-messages?page=2147483648', '/api/admin/audit?page=2147483648'])(
    'GET %s → 400 VALIDATION_FAILED on page',
    async (path) => {
      const error = await refused('GET', path, { token: admin.token });
      expect(error.details).toEqual({ page: [`Page must be at most ${PAGE_MAX}`] });
    },
  );

  it.each(['/api/posts?page=2147483648', '/api/posts/search?tag=Safe&page=2147483648', '/api/posts/search?q=post&page=99999999999'])('GET %s → 400', async (path) => {
    await refused('GET', path);
  });

  it('react-admin ranges are bounded as pages are', async () => {
    await refused('GET', `/api/admin/users?range=${encodeURIComponent('[2147483648,2147483650]')}`, { token: admin.token });
  });

  it(`the deepest page, ${PAGE_MAX}, answers an empty page`, async () => {
    const answer = await send('GET', `/api/admin/users?page=${PAGE_MAX}`, { token: admin.token });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ users: [] });
    expect((await send('GET', `/api/posts?page=${PAGE_MAX}`)).status).toBe(200);
  });

  it('make-admin refuses a body with something in it, and takes none or {} (what the spec’s clients send)', async () => {
    const target = await forum.newUser('Soon Admin');
    await forum.api('/api/me', { token: target.token });
    const path = `/api/admin/users/make-admin/${target.id}`;
    const error = await refused('PATCH', path, { token: admin.token, body: JSON.stringify({ role: 'user' }) });
    expect(error.details).toEqual({ role: ['role is not a field of this call'] });
    expect((await refused('PATCH', path, { token: admin.token, body: '[]' })).details).toEqual({ _: ['This call takes no body'] });
    expect((await send('PATCH', path, { token: admin.token, body: '{}' })).status).toBe(200);
    expect((await send('PATCH', path, { token: admin.token })).status).toBe(200);
  });

  it.each([
    ['DELETE', '/api/admin/tags/:id', () => `/api/admin/tags/00000000-0000-4000-8000-000000000000`],
    ['DELETE', '/api/my-posts/:id', () => `/api/my-posts/${postId}`],
    ['DELETE', '/api/admin/comments/:commentId', () => `/api/admin/comments/${commentId}`],
    ['PATCH', '/api/users/membership/:email', () => `/api/users/membership/${member.email}`],
    ['POST', '/api/me/registration', () => '/api/me/registration'],
    ['POST', '/api/admin/projections/:name/rebuild', () => '/api/admin/projections/posts/rebuild'],
  ])('%s %s (a call without a body) refuses one', async (method, _name, path) => {
    await refused(method, path(), { token: admin.token, body: JSON.stringify({ anything: true }) });
  });
});

describe('a photo address may not point at the forum itself', () => {
  it.each([
    'https://127.0.0.1:<port>/api/me',
    'https://localhost:<port>/realms/forum/protocol/openid-connect/logout',
    'https://[::1]:<port>/api/me',
    'https://user:secret@img.example/a.png',
    'http://img.example/a.png',
  ])('PATCH /api/me refuses %s', async (photo) => {
    const error = await refused('PATCH', '/api/me', { token: member.token, body: JSON.stringify({ photoURL: photo.replace('<port>', String(forum.port)) }) });
    expect(Object.keys(error.details as object)).toEqual(['photoURL']);
  });

  it('takes https anywhere else', async () => {
    const answer = await send('PATCH', '/api/me', { token: member.token, body: JSON.stringify({ photoURL: 'https://img.example/a.png' }) });
    expect(answer.status).toBe(200);
  });

  it('#39 edge 12: refuses http:// anywhere, this machine too (the pages would never load it), saying "Use an https:// address" as Change Photo does', async () => {
    for (const photo of ['http://localhost:5173/dev.png', 'http://img.example/a.png', 'not a url']) {
      const error = await refused('PATCH', '/api/me', { token: member.token, body: JSON.stringify({ photoURL: photo }) });
      expect(error.details, photo).toEqual({ photoURL: ['Use an https:// address'] });
    }
  });
});

describe('a body in another media type or charset is 415 UNSUPPORTED_MEDIA_TYPE', () => {
  const post = JSON.stringify({ title: 't', description: 'd', tags: ['Safe'] });
  it.each([
    ['application/json; charset=latin1', '/api/posts'],
    ['application/json; charset=utf-16', '/api/comments'],
    ['text/plain', '/api/posts'],
    ['application/x-www-form-urlencoded', '/api/admin/tags'],
    ['text/plain', '/api/contact'],
  ])('%s to %s', async (type, path) => {
    await refused('POST', path, { token: member.token, body: post, type }, { status: 415, code: ErrorCode.UNSUPPORTED_MEDIA_TYPE });
  });

  it('UTF-8 named any way is read', async () => {
    const writer = await forum.newUser('Una Utf');
    for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json']) {
      expect((await send('POST', '/api/posts', { token: writer.token, body: post, type })).status, type).toBe(201);
    }
  });
});
