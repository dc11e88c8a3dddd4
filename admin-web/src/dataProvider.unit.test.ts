import { WrittenPosition } from '@forum/contracts';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider, RESOURCE_ENDPOINTS, serverCode, serverMessage, type ForumDataProvider } from './dataProvider';

/** A call the provider made, as the server would see it. */
interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Answer = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };

/**
 * fetch replaced: every call recorded, each answered by `answer` (default: 200 with `{}`).
 * The provider calls relative addresses (/api/…), as the console does from its own origin.
 */
function stubFetch(answer: (call: Call) => Answer | Promise<Answer> = () => ({ body: {} })) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://console.test');
    const text = typeof init.body === 'string' ? init.body : undefined;
    const call: Call = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: text === undefined ? undefined : JSON.parse(text),
    };
    calls.push(call);
    const reply = await answer(call);
    return new Response(reply.text ?? JSON.stringify(reply.body ?? {}), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const token = () => Promise.resolve('admin-token');
const provider = (written?: WrittenPosition): ForumDataProvider => createDataProvider(token, written);
const only = (calls: Call[]) => {
  expect(calls).toHaveLength(1);
  return calls[0]!;
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the data provider: reads (ra-data-simple-rest against the query-service)', () => {
  it("lists a resource from its endpoint with range, sort and filter, the total from Content-Range, and each `_id` as react-admin's `id`", async () => {
    const calls = stubFetch(() => ({
      body: [
        { _id: 'u-1', name: 'Ann Author', role: 'user', isMember: false },
        { _id: 'u-2', name: 'Ben', role: 'admin', isMember: true },
      ],
      headers: { 'Content-Range': 'users 10-11/12' },
    }));
    const result = await provider().getList<{ id: string; _id: string }>('manage-users', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: 'ann' },
    });

    const call = only(calls);
    expect(call.method).toBe('GET');
    expect(call.path).toBe('/api/admin/users');
    expect(JSON.parse(call.query.get('range')!)).toEqual([10, 19]);
    expect(JSON.parse(call.query.get('sort')!)).toEqual(['name', 'ASC']);
    expect(JSON.parse(call.query.get('filter')!)).toEqual({ q: 'ann' });
    expect(call.headers.get('Authorization')).toBe('Bearer admin-token');
    expect(result.total).toBe(12);
    expect(result.data.map((user) => [user.id, user._id])).toEqual([
      ['u-1', 'u-1'],
      ['u-2', 'u-2'],
    ]);
  });

  it('keeps an `id` the API already gives (a reported comment: `id` is the report, `_id` the comment)', async () => {
    stubFetch(() => ({ body: [{ id: 'r-1', _id: 'c-1', text: 'spam!' }], headers: { 'Content-Range': 'reported-comments 0-0/1' } }));
    const { data } = await provider().getList('reported-comments', {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'reportedAt', order: 'DESC' },
      filter: {},
    });
    expect(data).toEqual([{ id: 'r-1', _id: 'c-1', text: 'spam!' }]);
  });

  it("reads the moderators' queue a page at a time by its status, from /api/admin/reports", async () => {
    const calls = stubFetch(() => ({ body: { items: [], totalCount: 0, page: 2 } }));
    const result = await provider().getList('reports', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { status: 'handled' },
    });
    const call = only(calls);
    expect([call.path, call.query.get('status'), call.query.get('page')]).toEqual(['/api/admin/reports', 'handled', '2']);
    expect(result).toEqual({ data: [], total: 0 });
  });

  // the queue answers its own shape (above); every other resource is react-admin's list
  it.each(Object.entries(RESOURCE_ENDPOINTS).filter(([resource]) => resource !== 'reports'))(
    'reads the console resource %s from /api/%s',
    async (resource, endpoint) => {
      const calls = stubFetch(() => ({ body: [], headers: { 'Content-Range': `${resource} */0` } }));
      const result = await provider().getList(resource, { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
      expect(only(calls).path).toBe(`/api/${endpoint}`);
      expect(result).toEqual({ data: [], total: 0 });
    },
  );

  it('reads a resource it does not map from the path of its name', async () => {
    const calls = stubFetch(() => ({ body: [], headers: { 'Content-Range': 'tags */0' } }));
    await provider().getList('comments', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(only(calls).path).toBe('/api/comments');
  });

  it('refuses a list answered without Content-Range (no total to page with)', async () => {
    stubFetch(() => ({ body: [] }));
    await expect(
      provider().getList('manage-users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'name', order: 'ASC' }, filter: {} }),
    ).rejects.toThrow(/Content-Range/);
  });

  it('reads one record by id from its endpoint, `_id` as `id`', async () => {
    const calls = stubFetch(() => ({ body: { _id: 'p/1', title: 'Welcome to the forum!' } }));
    const { data } = await provider().getOne<{ id: string; _id: string; title: string }>('posts', { id: 'p/1' });
    expect(only(calls).path).toBe('/api/posts/p%2F1');
    expect(data).toEqual({ id: 'p/1', _id: 'p/1', title: 'Welcome to the forum!' });
  });

  it('getStats reads GET /api/admin/stats with the token', async () => {
    const stats = {
      admin: { name: 'Forum Admin', email: 'admin@forum.local', photoURL: '', role: 'admin' },
      stats: { totalPosts: 3, totalComments: 2, totalUsers: 4 },
    };
    const calls = stubFetch(() => ({ body: stats }));
    expect(await provider().getStats()).toEqual(stats);
    const call = only(calls);
    expect([call.method, call.path, call.headers.get('Authorization')]).toEqual(['GET', '/api/admin/stats', 'Bearer admin-token']);
  });

  it('sends no Authorization header when there is no token', async () => {
    const calls = stubFetch(() => ({ body: [], headers: { 'Content-Range': 'users */0' } }));
    await createDataProvider(() => Promise.resolve(undefined)).getList('manage-users', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(only(calls).headers.has('Authorization')).toBe(false);
  });
});

describe('the data provider: the moderation verbs (the command-service)', () => {
  const verbs: Array<[string, (p: ForumDataProvider) => Promise<unknown>, string, string, unknown]> = [
    ['makeAdmin', (p) => p.makeAdmin('kc|user 1'), 'PATCH', '/api/admin/users/make-admin/kc%7Cuser%201', undefined],
    ['deleteComment', (p) => p.deleteComment('c-1'), 'DELETE', '/api/admin/comments/c-1', undefined],
    [
      'warnUser (with the comment)',
      (p) => p.warnUser('bob+x@forum.local', { commentId: 'c-1' }),
      'POST',
      '/api/admin/warn-user/bob%2Bx%40forum.local',
      { commentId: 'c-1' },
    ],
    ['warnUser (the spec: nothing said)', (p) => p.warnUser('bob@forum.local'), 'POST', '/api/admin/warn-user/bob%40forum.local', {}],
    ['addTag', (p) => p.addTag('Rust'), 'POST', '/api/admin/tags', { name: 'Rust' }],
    ['deleteTag', (p) => p.deleteTag('t-1'), 'DELETE', '/api/admin/tags/t-1', undefined],
    [
      'createAnnouncement',
      (p) => p.createAnnouncement({ title: 'Maintenance', description: 'Tonight at 22:00' }),
      'POST',
      '/api/admin/announcements',
      { title: 'Maintenance', description: 'Tonight at 22:00' },
    ],
    ['rebuildProjection', (p) => p.rebuildProjection('post list'), 'POST', '/api/admin/projections/post%20list/rebuild', undefined],
  ];

  it.each(verbs)('%s: %s %s with its body and the bearer token, answering what the command accepted', async (_name, verb, method, path, body) => {
    const calls = stubFetch(() => ({ body: { id: 'x-1', position: '40.2' }, headers: { 'X-Event-Position': '40.2' } }));
    expect(await verb(provider())).toEqual({ id: 'x-1', position: '40.2' });
    const call = only(calls);
    expect(call.method).toBe(method);
    expect(call.path).toBe(path);
    expect(call.body).toEqual(body);
    if (body !== undefined) expect(call.headers.get('Content-Type')).toBe('application/json');
    expect(call.headers.get('Authorization')).toBe('Bearer admin-token');
    // a command never waits for the read side
    expect(call.headers.has('X-Min-Position')).toBe(false);
  });

  it('answers {} when a command answers with no body', async () => {
    stubFetch(() => ({ text: '' }));
    expect(await provider().deleteComment('c-1')).toEqual({});
  });
});

describe('the data provider: read-your-writes', () => {
  const listUsers = (p: ForumDataProvider) =>
    p.getList('manage-users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'name', order: 'ASC' }, filter: {} });
  const positions = (calls: Call[]) => calls.map((call) => `${call.method} ${call.headers.get('X-Min-Position') ?? '-'}`);

  it('sends X-Min-Position on every read after a command answered X-Event-Position, and only the furthest one', async () => {
    let next = '52.7';
    const calls = stubFetch((call): Answer =>
      call.method === 'GET'
        ? { body: [], headers: { 'Content-Range': 'users */0' } }
        : { body: { id: 'u-1', position: next }, headers: { 'X-Event-Position': next } },
    );
    const p = provider();
    await listUsers(p);
    await p.makeAdmin('u-1');
    await listUsers(p);
    await p.getStats();
    next = '51.9'; // an older position (a slower command answering late) does not move it back
    await p.deleteComment('c-1');
    await listUsers(p);
    expect(positions(calls)).toEqual(['GET -', 'PATCH -', 'GET 52.7', 'GET 52.7', 'DELETE -', 'GET 52.7']);
  });

  it('reads again, at the same position, while the server answers that its read models are behind (X-Read-Behind), and shows the last answer after a few tries', async () => {
    const written = new WrittenPosition();
    written.saw('60.1');
    let behind = 2;
    const calls = stubFetch(() => ({ body: [], headers: { 'Content-Range': 'users */0', ...(behind-- > 0 && { 'X-Read-Behind': 'true' }) } }));
    await listUsers(provider(written));
    expect(positions(calls)).toEqual(['GET 60.1', 'GET 60.1', 'GET 60.1']);

    behind = 100;
    const stuck = stubFetch(() => ({ body: [], headers: { 'Content-Range': 'users */0', 'X-Read-Behind': 'true' } }));
    expect(await listUsers(provider(written))).toEqual({ data: [], total: 0 });
    expect(stuck).toHaveLength(5);
  });

  it('shares the position it is given (one per console) and ignores answers without one', async () => {
    const written = new WrittenPosition();
    written.saw('9.1');
    const calls = stubFetch((call) => (call.method === 'GET' ? { body: [], headers: { 'Content-Range': 'users */0' } } : { body: { id: 'c-1' } }));
    const p = provider(written);
    await p.deleteComment('c-1');
    await listUsers(p);
    expect(positions(calls)).toEqual(['DELETE -', 'GET 9.1']);
  });
});

describe('the data provider: errors', () => {
  it("rejects with react-admin's HttpError whose body is the server's `{ error: { code, message } }`", async () => {
    stubFetch(() => ({ status: 409, body: { error: { code: 'TAG_EXISTS', message: 'A tag named Rust already exists' } } }));
    const error = await provider()
      .addTag('Rust')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(409);
    expect(serverMessage(error, 'Failed to add tag')).toBe('A tag named Rust already exists');
    expect(serverCode(error)).toBe('TAG_EXISTS');
  });

  it('falls back to the given text when the answer is not the error body (a gateway page, an empty message)', async () => {
    stubFetch(() => ({ status: 502, text: '<html>Bad Gateway</html>' }));
    const gateway = await provider()
      .deleteComment('c-1')
      .catch((e: unknown) => e);
    expect(gateway).toBeInstanceOf(HttpError);
    expect(serverMessage(gateway, 'Failed to delete comment')).toBe('Failed to delete comment');
    expect(serverCode(gateway)).toBeNull();

    stubFetch(() => ({ status: 500, body: { error: { code: 42, message: '' } } }));
    const empty = await provider()
      .warnUser('bob@forum.local')
      .catch((e: unknown) => e);
    expect(serverMessage(empty, 'Failed to warn user')).toBe('Failed to warn user');
    expect(serverCode(empty)).toBeNull();
  });

  it('falls back to the given text when the network fails (not an HttpError)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await provider()
      .makeAdmin('u-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(serverMessage(error, 'Failed to update user role')).toBe('Failed to update user role');
    expect(serverCode(error)).toBeNull();
  });

  it('rejects a failed read the same way (the list pages show its message)', async () => {
    stubFetch(() => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'Admins only' } } }));
    const error = await provider()
      .getList('reported-comments', { pagination: { page: 1, perPage: 100 }, sort: { field: 'reportedAt', order: 'DESC' }, filter: {} })
      .catch((e: unknown) => e);
    expect((error as HttpError).status).toBe(403);
    expect(serverMessage(error, 'Failed to load reported comments')).toBe('Admins only');
  });
});
