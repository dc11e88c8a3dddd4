import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '@forum/contracts';
import express, { type Express } from 'express';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, createTokenVerifier, optionalAuth, principalOfRequest, requireAuth, type TokenVerifier } from './auth.ts';
import { bulkhead, bulkheadHook } from './bulkhead.ts';
import { healthPlugin, healthRoutes } from './health.ts';
import { createHttpApp, errorHandler, jsonBody, notFoundHandler } from './http.ts';
import { createHttpServer, type HttpServer } from './http-server.ts';
import { createLogger } from './logger.ts';
import { cancelWhenClientLeavesHook, createReadKnex } from './read-db.ts';
import { createTestDatabase, waitFor } from './testing/index.ts';

/**
 * The Fastify hooks (authentication, the bulkhead, client-leaves cancellation) and health routes
 * answer as their Express middleware do: both servers get the same requests over real HTTP.
 */
const issuer = 'http://localhost:3000/realms/forum';
const audience = 'urn:forum:api';
const logger = createLogger('http-server-hooks-test', 'silent');
let verify: TokenVerifier;
let token: string;
const closers: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  verify = createTokenVerifier({ issuer, audience, keys: createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] }) });
  token = await new SignJWT({ email: 'alice@forum.local' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience(audience).setSubject('u-1').setExpirationTime('5m').sign(privateKey);
});
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Both servers listening: `express` given the Express app's routes, `fastify` the Fastify server's. */
async function serveBoth(routes: { express: (app: Express) => void; fastify: (server: HttpServer) => void }) {
  const app = createHttpApp();
  app.use('/api', jsonBody());
  routes.express(app);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  const expressServer: Server = app.listen(0, '127.0.0.1');
  await once(expressServer, 'listening');
  closers.push(() => (expressServer.closeAllConnections(), expressServer.close()));
  const server = createHttpServer({ logger });
  routes.fastify(server);
  const fastifyBase = await server.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => server.close());
  return { expressBase: `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`, fastifyBase };
}

const answerOf = async (url: string, init: RequestInit = {}) => {
  const answer = await fetch(url, init);
  return { status: answer.status, contentType: answer.headers.get('content-type'), retryAfter: answer.headers.get('retry-after'), body: await answer.text() };
};

describe('authentication', () => {
  it.each([
    ['no token where one is required', '/api/me', undefined, 401],
    ['another scheme', '/api/me', 'Basic YWxpY2U6c2VjcmV0', 401],
    ['a token that is not valid', '/api/me', 'Bearer not.a.token', 401],
    ['a valid token', '/api/me', 'valid', 200],
    ['no token where none is required', '/api/posts', undefined, 200],
    ['a bad token where none is required', '/api/posts', 'Bearer not.a.token', 401],
    ['a valid token where none is required', '/api/posts', 'valid', 200],
  ])('%s: as requireAuth / optionalAuth answer', async (_case, path, authorization, status) => {
    const { expressBase, fastifyBase } = await serveBoth({
      express: (app) => {
        app.get('/api/me', requireAuth(verify), (_req, res) => void res.json({ subject: res.locals.principal!.subject }));
        app.get('/api/posts', optionalAuth(verify), (_req, res) => void res.json({ subject: res.locals.principal?.subject ?? null }));
      },
      fastify: (server) => {
        server.get('/api/me', { preHandler: authenticate(verify, { required: true }) }, async (request) => ({ subject: principalOfRequest(request).subject }));
        server.get('/api/posts', { preHandler: authenticate(verify, { required: false }) }, async (request) => ({ subject: request.principal?.subject ?? null }));
      },
    });
    const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization === 'valid' ? `Bearer ${token}` : authorization };
    const [fromExpress, fromFastify] = await Promise.all([answerOf(expressBase + path, { headers }), answerOf(fastifyBase + path, { headers })]);
    expect(fromExpress.status).toBe(status);
    if (status === 401) expect(JSON.parse(fromExpress.body)).toMatchObject({ error: { code: ErrorCode.UNAUTHENTICATED } });
    expect(fromFastify).toEqual(fromExpress);
  });
});

describe('the bulkhead', () => {
  it('refuses a request past its turns and queue with 503 BUSY and Retry-After, then admits the next once a turn is free', async () => {
    const releases: (() => void)[] = [];
    const held = () => new Promise<void>((resolve) => releases.push(resolve));
    const options = { what: 'searches', concurrency: 1, queue: 0, maxWaitMs: 1000 };
    const { expressBase, fastifyBase } = await serveBoth({
      express: (app) => app.get('/api/search', bulkhead(options), async (_req, res) => (await held(), void res.json({ found: [] }))),
      fastify: (server) => server.get('/api/search', { onRequest: bulkheadHook(options) }, async () => (await held(), { found: [] })),
    });
    for (const base of [expressBase, fastifyBase]) {
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
        body: JSON.stringify({ error: { code: ErrorCode.BUSY, message: 'Too many searches at once. Please try again in a moment.' } }),
      });
    }
  });
});

describe('health routes', () => {
  it.each([
    ['/healthz', true],
    ['/readyz', true],
    ['/readyz', false],
  ])('%s (checks pass: %s) answers as healthRoutes does', async (path, ok) => {
    const checks = { database: async () => ({ ok, detail: ok ? 'up' : 'down' }) };
    const { expressBase, fastifyBase } = await serveBoth({ express: (app) => app.use(healthRoutes(checks)), fastify: (server) => void server.register(healthPlugin(checks)) });
    const [fromExpress, fromFastify] = await Promise.all([answerOf(expressBase + path), answerOf(fastifyBase + path)]);
    expect(fromExpress.status).toBe(ok ? 200 : 503);
    expect(fromFastify).toEqual(fromExpress);
  });
});

describe('a request whose client leaves', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let observer: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('http_server_hooks');
    observer = new pg.Client({ connectionString: database.url });
    await observer.connect();
    closers.push(() => database.drop(), () => observer.end());
  }, 60_000);

  const sleeping = async () =>
    (await observer.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-read' AND state = 'active' AND query LIKE '%pg_sleep%'`)).rows;

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
    const request = fetch(`${base}/sleep`, { method, body, headers: { 'Content-Type': 'application/json' }, signal: client.signal }).catch((error: Error) => error);
    await waitFor(sleeping, (rows) => rows.some((row) => row.pid === pid));
    client.abort();
    expect(await request).toBeInstanceOf(Error);
    await waitFor(sleeping, (rows) => rows.length === 0);
    const next = await fetch(`${base}/quick`);
    expect(((await next.json()) as { pid: number }).pid).toBe(pid);
  });
});
