import http from 'node:http';
import { once } from 'node:events';
import { createCommandApp, createForumCommands, readModelDirectory, type CommandApp } from '@forum/command-service';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { createKnex, createLogger, createTokenVerifier, DEFAULT_AUDIENCE, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The members' most frequent commands (a vote, a comment, a post) go out without Express
 * (createHotCommands): the same answers as the app's routes, errors byte for byte, with the
 * request id, the token's check and the Idempotency-Key the app gives them; and anything the app
 * would read otherwise (no token, another body type, a query string, a body of no stated length)
 * goes to the app. Two servers on the forum's database: one as the forum's (the hot path first,
 * recording which way each request went), one with the app alone.
 */
let forum: TestForum;
let db: Knex;
let store: EventStore;
let app: CommandApp;
const servers: http.Server[] = [];
let hotBase: string;
let appBase: string;
const direct: boolean[] = [];
let token: string;
let postId: string;

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  forum = await startTestForum();
  db = createKnex(forum.databaseUrl, { max: 2 });
  store = await createPostgresEventStore({ connectionString: forum.databaseUrl, poolSize: 4 });
  app = createCommandApp({
    store,
    commands: createForumCommands(store, { adminEmails: [] }),
    verifyToken: createTokenVerifier({ issuer: forum.issuer, audience: DEFAULT_AUDIENCE, jwksUrl: `${forum.url}/realms/forum/protocol/openid-connect/certs` }),
    directory: readModelDirectory(db),
    logger: createLogger('hot-commands-test', 'silent'),
    clock: () => new Date(),
    forumOrigin: forum.url,
  });
  hotBase = await serve((req, res) => {
    const served = app.serveDirectly(req, res);
    direct.push(served);
    if (!served) app(req, res);
  });
  appBase = await serve((req, res) => app(req, res));
  const admin = await forum.demoAdmin();
  await forum.api('/api/admin/tags', { method: 'POST', token: admin.token, json: { name: 'Hot' } });
  token = (await forum.newUser('Hot Writer')).token;
  // another member's post: nobody votes on their own
  const author = await forum.newUser('Hot Author');
  const created = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'A hot post', description: 'To vote and comment on', tags: ['Hot'] } });
  postId = ((await created.json()) as { id: string }).id;
}, 60_000);
afterAll(async () => {
  for (const server of servers) server.close();
  await store?.close();
  await db?.destroy();
  await forum?.stop();
});

/** `method path` with `body` (a string is sent as it is) to one of the servers, and which way it went. */
async function send(base: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const before = direct.length;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { response, text, direct: base === hotBase ? direct[before] : false };
}

const SAME_HEADERS = ['content-type', 'retry-after', 'idempotent-replayed'];
const headersOf = (response: Response) => ({
  ...Object.fromEntries(SAME_HEADERS.map((name) => [name, response.headers.get(name)])),
  position: response.headers.get('x-event-position') !== null,
});

describe("members' hottest commands", () => {
  const commands = () => [
    { method: 'PUT', path: `/api/posts/${postId}/vote`, body: { vote: 'up' }, status: 200 },
    { method: 'POST', path: '/api/comments', body: { postId, text: 'A hot comment' }, status: 201 },
    { method: 'POST', path: '/api/posts', body: { title: 'Another hot post', description: 'Written without Express', tags: ['Hot'] }, status: 201 },
  ];

  it('answer without Express as the app answers: status, headers and an answer of the same shape, each written', async () => {
    const written = async () =>
      Object.fromEntries(
        (
          await db.raw<{ rows: { type: string; n: number }[] }>(
            `SELECT type, count(*)::int AS n FROM eventstore.events WHERE type IN ('VoteCast', 'CommentAdded', 'PostCreated') GROUP BY type`,
          )
        ).rows.map((r) => [r.type, r.n]),
      );
    const before = await written();
    for (const { method, path, body, status } of commands()) {
      const hot = await send(hotBase, method, path, body);
      const viaApp = await send(appBase, method, path, method === 'PUT' ? { vote: 'down' } : body);
      expect([path, hot.direct, hot.response.status, viaApp.response.status]).toEqual([path, true, status, status]);
      expect(headersOf(hot.response), path).toEqual(headersOf(viaApp.response));
      const [a, b] = [JSON.parse(hot.text), JSON.parse(viaApp.text)];
      expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort());
      expect(a.position, path).toBe(hot.response.headers.get('x-event-position'));
    }
    // what each way wrote is in the log: one event each
    const after = await written();
    expect(Object.fromEntries(Object.keys(after).map((type) => [type, after[type]! - (before[type] ?? 0)]))).toEqual({ CommentAdded: 2, PostCreated: 2, VoteCast: 2 });
  });

  it('answer errors byte for byte as the app does: a body that is not JSON or not an object, input refused, a bad token or key, no post', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: [string, string, unknown, Record<string, string>?][] = [
      ['POST', '/api/comments', '{"postId": '],
      ['POST', '/api/comments', '"just a string"'],
      ['POST', '/api/comments', 'null'],
      ['POST', '/api/comments', ''],
      ['POST', '/api/comments', { postId, text: '' }],
      ['POST', '/api/comments', { postId: missing, text: 'To nowhere' }],
      ['PUT', `/api/posts/${postId}/vote`, { vote: 'sideways' }],
      ['PUT', '/api/posts/not-an-id/vote', { vote: 'up' }],
      ['POST', '/api/posts', { title: '', description: 'x', tags: [] }],
      ['POST', '/api/comments', { postId, text: 'A comment' }, { Authorization: 'Bearer not-a-token' }],
      ['POST', '/api/comments', { postId, text: 'A comment' }, { 'Idempotency-Key': 'not ascii é' }],
    ];
    for (const [method, path, body, headers] of cases) {
      const hot = await send(hotBase, method, path, body, headers);
      const viaApp = await send(appBase, method, path, body, headers);
      const label = `${method} ${path} ${JSON.stringify(body)}`;
      expect([label, hot.direct], label).toEqual([label, true]);
      expect(hot.response.status, label).toBe(viaApp.response.status);
      expect(hot.response.status, label).toBeGreaterThanOrEqual(400);
      expect(hot.text, label).toBe(viaApp.text);
      expect(headersOf(hot.response), label).toEqual(headersOf(viaApp.response));
    }
  });

  it("keep the Idempotency-Key as the app does: a retry on either way replays the first answer", async () => {
    const key = `hot-${Date.now()}`;
    const body = { postId, text: 'Said once' };
    const first = await send(hotBase, 'POST', '/api/comments', body, { 'Idempotency-Key': key });
    const again = await send(hotBase, 'POST', '/api/comments', body, { 'Idempotency-Key': key });
    const viaApp = await send(appBase, 'POST', '/api/comments', body, { 'Idempotency-Key': key });
    expect([first.direct, first.response.status, again.direct, again.response.status, viaApp.response.status]).toEqual([true, 201, true, 201, 201]);
    expect([again.text, viaApp.text]).toEqual([first.text, first.text]);
    expect([again.response.headers.get('idempotent-replayed'), viaApp.response.headers.get('idempotent-replayed')]).toEqual(['true', 'true']);
    const reused = await send(hotBase, 'POST', '/api/comments', { postId, text: 'Something else' }, { 'Idempotency-Key': key });
    const reusedViaApp = await send(appBase, 'POST', '/api/comments', { postId, text: 'Something else' }, { 'Idempotency-Key': key });
    expect([reused.response.status, reused.text]).toEqual([reusedViaApp.response.status, reusedViaApp.text]);
    expect(reused.response.status).toBe(422);
  });

  it('carry the request id', async () => {
    const hot = await send(hotBase, 'PUT', `/api/posts/${postId}/vote`, { vote: 'none' }, { 'X-Request-Id': 'hot-command-1' });
    expect([hot.direct, hot.response.status, hot.response.headers.get('X-Request-Id')]).toEqual([true, 200, 'hot-command-1']);
  });

  it('leave to the app what it reads otherwise: no token, another body type, a query string, a body of no stated length, another command', async () => {
    const noToken = await fetch(`${hotBase}/api/comments`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ postId, text: 'x' }) });
    expect([direct.at(-1), noToken.status]).toEqual([false, 401]);
    const text = await send(hotBase, 'POST', '/api/comments', JSON.stringify({ postId, text: 'x' }), { 'Content-Type': 'text/plain' });
    expect([text.direct, text.response.status]).toEqual([false, 415]);
    const query = await send(hotBase, 'POST', '/api/comments?via=app', { postId, text: 'Via the app' });
    expect([query.direct, query.response.status]).toEqual([false, 201]);
    const streamed = await new Promise<{ status: number }>((resolve, reject) => {
      const req = http.request(`${hotBase}/api/comments`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode! }));
      });
      req.on('error', reject);
      req.write(JSON.stringify({ postId, text: 'In chunks' }));
      req.end();
    });
    expect([direct.at(-1), streamed.status]).toEqual([false, 201]);
    const other = await send(hotBase, 'PATCH', `/api/posts/${postId}/vote`, { likeChange: 1, dislikeChange: 0 });
    expect([other.direct, other.response.status]).toEqual([false, 200]);
  });
});
