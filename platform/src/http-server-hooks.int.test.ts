import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, createTokenVerifier, principalOfRequest, type TokenVerifier } from './auth.ts';
import { bulkheadHook } from './bulkhead.ts';
import { healthPlugin } from './health.ts';
import { createHttpServer, type HttpServer } from './http-server.ts';
import { createLogger } from './logger.ts';
import { cancelWhenClientLeavesHook, createReadKnex } from './read-db.ts';
import { createTestDatabase, waitFor } from './testing/index.ts';

/**
 * The platform's hooks (authentication, the bulkhead, client-leaves cancellation) and health
 * routes over real HTTP. The expected answers are the API's as the services gave them before they
 * moved onto this server (the Express middleware's), written out literally.
 */
const issuer = 'http://localhost:3000/realms/forum';
const audience = 'urn:forum:api';
const logger = createLogger('http-server-hooks-test', 'silent');
let verify: TokenVerifier;
let token: string;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  verify = createTokenVerifier({ issuer, audience, keys: createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] }) });
  token = await new SignJWT({ email: 'alice@forum.local' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject('u-1')
    .setExpirationTime('5m')
    .sign(privateKey);
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server with the routes `routes` adds, listening; its base URL. */
async function serve(routes: (server: HttpServer) => void) {
  const server = createHttpServer({ logger });
  routes(server);
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => server.close());
  return base;
}

const answerOf = async (url: string, init: RequestInit = {}) => {
  const answer = await fetch(url, init);
  return { status: answer.status, contentType: answer.headers.get('content-type'), retryAfter: answer.headers.get('retry-after'), body: await answer.text() };
};

/** An answer in JSON, without Retry-After. */
const answered = (status: number, body: string) => ({ status, contentType: 'application/json; charset=utf-8', retryAfter: null, body });

describe('authentication', () => {
  let base: string;
  beforeAll(async () => {
    base = await serve((server) => {
      server.get('/api/me', { preHandler: authenticate(verify, { required: true }) }, (request) => ({ subject: principalOfRequest(request).subject }));
      server.get('/api/posts', { preHandler: authenticate(verify, { required: false }) }, (request) => ({ subject: request.principal?.subject ?? null }));
    });
  });

  it.each([
    [
      'no token where one is required',
      '/api/me',
      undefined,
      answered(401, '{"error":{"code":"UNAUTHENTICATED","message":"A valid bearer token is required"}}'),
    ],
    [
      'another scheme',
      '/api/me',
      'Basic YWxpY2U6c2VjcmV0',
      answered(401, '{"error":{"code":"UNAUTHENTICATED","message":"The Authorization header must be \\"Bearer <token>\\""}}'),
    ],
    ['a token that is not valid', '/api/me', 'Bearer not.a.token', answered(401, '{"error":{"code":"UNAUTHENTICATED","message":"The token is not valid"}}')],
    ['a valid token', '/api/me', 'valid', answered(200, '{"subject":"u-1"}')],
    ['no token where none is required', '/api/posts', undefined, answered(200, '{"subject":null}')],
    [
      'a bad token where none is required',
      '/api/posts',
      'Bearer not.a.token',
      answered(401, '{"error":{"code":"UNAUTHENTICATED","message":"The token is not valid"}}'),
    ],
    ['a valid token where none is required', '/api/posts', 'valid', answered(200, '{"subject":"u-1"}')],
  ])('%s', async (_case, path, authorization, expected) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization === 'valid' ? `Bearer ${token}` : authorization };
    expect(await answerOf(base + path, { headers })).toEqual(expected);
  });
});

describe('the bulkhead', () => {
  it('refuses a request past its turns and queue with 503 BUSY and Retry-After, then admits the next once a turn is free', async () => {
    const releases: (() => void)[] = [];
    const held = () => new Promise<void>((resolve) => releases.push(resolve));
    const options = { what: 'searches', concurrency: 1, queue: 0, maxWaitMs: 1000 };
    const base = await serve((server) => server.get('/api/search', { onRequest: bulkheadHook(options) }, async () => (await held(), { found: [] })));
    const first = answerOf(`${base}/api/search`);
    await expect.poll(() => releases.length).toBe(1);
    const refused = await answerOf(`${base}/api/search`);
    releases.shift()!();
    expect((await first).status).toBe(200);
    const next = answerOf(`${base}/api/search`);
    await expect.poll(() => releases.length).toBe(1);
    releases.shift()!();
    expect((await next).status).toBe(200);
    expect(refused).toEqual({
      status: 503,
      contentType: 'application/json; charset=utf-8',
      retryAfter: '1',
      body: '{"error":{"code":"BUSY","message":"Too many searches at once. Please try again in a moment."}}',
    });
  });
});

describe('health routes', () => {
  it.each([
    ['/healthz', true, answered(200, '{"status":"ok"}')],
    ['/readyz', true, answered(200, '{"status":"ready","checks":{"database":{"ok":true,"detail":"up"}}}')],
    ['/readyz', false, answered(503, '{"status":"not ready","checks":{"database":{"ok":false,"detail":"down"}}}')],
  ])('%s (checks pass: %s)', async (path, ok, expected) => {
    const checks = { database: () => Promise.resolve({ ok, detail: ok ? 'up' : 'down' }) };
    const base = await serve((server) => void server.register(healthPlugin(checks)));
    expect(await answerOf(base + path)).toEqual(expected);
  });
});

describe('a request whose client leaves', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let observer: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('http_server_hooks');
    observer = new pg.Client({ connectionString: database.url });
    await observer.connect();
    closers.push(
      () => database.drop(),
      () => observer.end(),
    );
  }, 60_000);

  const sleeping = async () =>
    (
      await observer.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-read' AND state = 'active' AND query LIKE '%pg_sleep%'`,
      )
    ).rows;

  it.each([
    ['GET', undefined],
    ['POST', '{"seconds":60}'],
  ])('%s: its statement is cancelled (the hook runs before the body is read) and the connection serves the next', async (method, body) => {
    const db = createReadKnex(database.url, { max: 1, statementTimeoutMs: 60_000 });
    closers.push(() => db.destroy());
    const server = createHttpServer({ logger });
    server.addHook('onRequest', cancelWhenClientLeavesHook);
    server.route({ method: ['GET', 'POST'], url: '/sleep', handler: async () => (await db.raw('SELECT pg_sleep(60)'), { slept: true }) });
    server.get('/quick', async () => (await db.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid')).rows[0]);
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => server.close());
    const { pid } = (await (await fetch(`${base}/quick`)).json()) as { pid: number };
    const client = new AbortController();
    const request = fetch(`${base}/sleep`, { method, body, headers: { 'Content-Type': 'application/json' }, signal: client.signal }).catch(
      (error: Error) => error,
    );
    await waitFor(sleeping, (rows) => rows.some((row) => row.pid === pid));
    client.abort();
    expect(await request).toBeInstanceOf(Error);
    await waitFor(sleeping, (rows) => rows.length === 0);
    const next = await fetch(`${base}/quick`);
    expect(((await next.json()) as { pid: number }).pid).toBe(pid);
  });
});
