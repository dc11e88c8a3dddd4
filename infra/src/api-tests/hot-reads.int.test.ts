import http from 'node:http';
import { once } from 'node:events';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { createLogger, createTokenVerifier, DEFAULT_AUDIENCE, type Knex } from '@forum/platform';
import { CheckpointWatcher, createQueryApp, createReadDb, readLimits, readSettings } from '@forum/query-service';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The visitors' hottest reads go out without Express (createHotReads): the same answers as the
 * app's routes, byte for byte, with the app's errors, request id, cancel and visitors' cache; and
 * anything else (a token, X-Min-Position, another query key, input the route refuses) goes to the app.
 * A query app like the forum's reads the forum's database, behind a server that records which way
 * each request went.
 */
let forum: TestForum;
let db: Knex;
let store: EventStore;
let watcher: CheckpointWatcher;
let server: http.Server;
let base: string;
const direct: boolean[] = [];
let postId: string;
let token: string;

async function queryServer(visitorCacheEntries: number) {
  const settings = z.object(readSettings).parse({ VISITOR_CACHE_ENTRIES: visitorCacheEntries, READ_STATEMENT_TIMEOUT_MS: 20_000 });
  const logger = createLogger('hot-reads-test', 'silent');
  db = createReadDb(forum.databaseUrl, settings);
  store = await createPostgresEventStore({ connectionString: forum.databaseUrl, poolSize: 2 });
  watcher = new CheckpointWatcher(forum.databaseUrl, logger);
  await watcher.start();
  const app = createQueryApp({
    db,
    events: store,
    watcher,
    verifyToken: createTokenVerifier({ issuer: forum.issuer, audience: DEFAULT_AUDIENCE, jwksUrl: `${forum.url}/realms/forum/protocol/openid-connect/certs` }),
    registrar: async () => null,
    logger,
    ...readLimits(settings),
  });
  server = http.createServer((req, res) => {
    const served = app.serveDirectly(req, res);
    direct.push(served);
    if (!served) app(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  forum = await startTestForum();
  const admin = await forum.demoAdmin();
  for (const name of ['Hot', 'T0', 'T1']) await forum.api('/api/admin/tags', { method: 'POST', token: admin.token, json: { name } });
  const author = await forum.newUser('Hot Author');
  token = author.token;
  for (let i = 0; i < 5; i++) {
    const created = await forum.api('/api/posts', { method: 'POST', token, json: { title: `Hot read ${i}`, description: `Post number ${i}`, tags: ['Hot', `T${i % 2}`] } });
    const body = (await created.json()) as { id: string };
    if (created.status !== 201) throw new Error(`post not created: ${created.status} ${JSON.stringify(body)}`);
    postId = body.id;
  }
  const voter = await forum.newUser('Hot Voter');
  await forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'up' } });
  const commented = await forum.api('/api/comments', { method: 'POST', token: voter.token, json: { postId, text: 'A hot comment' } });
  const { position } = (await commented.json()) as { position: string };
  // every read model has what was written (the forum's own reads wait for it)
  await forum.api('/api/posts', { headers: { 'X-Min-Position': position } });
  await queryServer(0);
}, 60_000);
afterAll(async () => {
  server?.close();
  await watcher?.close();
  await store?.close();
  await db?.destroy();
  await forum?.stop();
});

/** GET `path` and which way it went. */
async function read(path: string, init: RequestInit = {}) {
  const before = direct.length;
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  return { response, text, direct: direct[before]! };
}

const SAME_HEADERS = ['content-type', 'content-length', 'x-total-count', 'access-control-expose-headers', 'retry-after'];
const headersOf = (response: Response) => Object.fromEntries(SAME_HEADERS.map((name) => [name, response.headers.get(name)]));

describe("visitors' hottest reads", () => {
  const missing = '00000000-0000-4000-8000-000000000000';
  const paths = () => [
    '/api/posts',
    '/api/posts?page=2&sort=popularity',
    '/api/posts/search?tag=hot',
    '/api/posts/search?tag=T1&page=1',
    `/api/posts/${postId}`,
    `/api/comments/${postId}`,
    `/api/posts/${postId}/comments`,
    `/api/posts/${postId}/comments?order=newest&limit=1`,
    '/api/users/top-voted',
    `/api/posts/${missing}`,
    `/api/comments/${missing}`,
    `/api/posts/${missing}/comments`,
  ];

  it('answer without Express what the app answers, byte for byte, errors too', async () => {
    for (const path of paths()) {
      const hot = await read(path);
      // a query key the hot read does not take: the app answers (and ignores it)
      const app = await read(`${path}${path.includes('?') ? '&' : '?'}via=app`);
      expect([path, hot.direct, app.direct]).toEqual([path, true, false]);
      expect(hot.response.status, path).toBe(app.response.status);
      expect(hot.text, path).toBe(app.text);
      expect(headersOf(hot.response), path).toEqual(headersOf(app.response));
    }
    const post = await read(`/api/posts/${postId}`);
    expect(JSON.parse(post.text)).toMatchObject({ _id: postId, upVote: 1, commentCount: 1 });
    expect(JSON.parse(post.text)).not.toHaveProperty('authorEmail');
    const missingPost = await read(`/api/posts/${missing}`);
    expect([missingPost.response.status, JSON.parse(missingPost.text).error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('carry the request id, and answer HEAD with the length and no body', async () => {
    const hot = await read('/api/users/top-voted', { headers: { 'X-Request-Id': 'hot-read-1' } });
    expect([hot.direct, hot.response.headers.get('X-Request-Id')]).toEqual([true, 'hot-read-1']);
    const head = await read('/api/users/top-voted', { method: 'HEAD' });
    expect([head.direct, head.response.status, head.text]).toEqual([true, 200, '']);
    expect(head.response.headers.get('Content-Length')).toBe(String(Buffer.byteLength(hot.text)));
  });

  it('leave to the app what it answers otherwise: a token, X-Min-Position, input it refuses, another path', async () => {
    const signedIn = await read(`/api/posts/${postId}`, { headers: { Authorization: `Bearer ${token}` } });
    expect([signedIn.direct, JSON.parse(signedIn.text).myVote]).toEqual([false, 'none']);
    expect((await read('/api/posts', { headers: { 'X-Min-Position': 'nonsense' } })).direct).toBe(false);
    const badId = await read('/api/posts/not-an-id');
    expect([badId.direct, badId.response.status, JSON.parse(badId.text).error.code]).toEqual([false, 400, 'VALIDATION_FAILED']);
    const badPage = await read('/api/posts?page=0');
    expect([badPage.direct, badPage.response.status]).toEqual([false, 400]);
    expect((await read('/api/posts/search?q=hot')).direct).toBe(false);
    expect((await read('/api/posts?range=[0,4]')).direct).toBe(false);
    expect((await read('/api/tags')).direct).toBe(false);
  });

  it("cancel their statement when the client goes away, and the connection serves the next read", async () => {
    const observer = new pg.Client(forum.databaseUrl);
    await observer.connect();
    try {
      const waiting = async () =>
        (await observer.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-read' AND state = 'active' AND wait_event_type = 'Lock'`)).rows;
      // the leaderboard's table locked: its read waits
      const locker = new pg.Client(forum.databaseUrl);
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE read.author_stats IN ACCESS EXCLUSIVE MODE`);
      const client = new AbortController();
      const request = fetch(`${base}/api/users/top-voted`, { signal: client.signal }).catch((error: Error) => error);
      await until(async () => (await waiting()).length === 1);
      client.abort();
      await request;
      await until(async () => (await waiting()).length === 0);
      await locker.query('ROLLBACK');
      await locker.end();
      const next = await read('/api/users/top-voted');
      expect([next.direct, next.response.status]).toEqual([true, 200]);
    } finally {
      await observer.end();
    }
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
