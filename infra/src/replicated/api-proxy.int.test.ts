import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createHttpServer, createLogger, type HttpServer } from '@forum/platform';
import { freePort } from '@forum/platform/embedded-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiProxy, discoveryProxy } from './api-proxy.ts';
import { ReplicaSet } from './replica-set.ts';

/**
 * The gateway's /api proxy against plain HTTP servers standing in for the replicas: what it does
 * when a replica is not there, when one cuts its answer off, and when the client goes away first.
 */
const logger = createLogger('api-proxy-test', 'silent');
const servers: Server[] = [];
const sets: ReplicaSet[] = [];
let gateway: HttpServer;
let base: string;
/** What each stand-in replica was asked, as 'name METHOD /path'. */
const asked: string[] = [];
/** The connections that carried a request other than /readyz to each stand-in replica, by name. */
const apiSockets = new Map<string, Set<Socket>>();

/** A stand-in replica named `name`, answering with `answer`. */
async function replica(name: string, answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    asked.push(`${name} ${req.method} ${req.url}`);
    if (req.url === '/readyz') return void res.end('{"status":"ready"}');
    apiSockets.set(name, (apiSockets.get(name) ?? new Set()).add(req.socket));
    answer(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A read's answer: who answered, the path it was asked and the X-Forwarded-For it was sent. */
const read = (name: string) => (req: IncomingMessage, res: ServerResponse) => {
  if (req.url === '/api/slow') return void setTimeout(() => res.end('{"late":true}'), 500);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ from: name, path: req.url, forwardedFor: req.headers['x-forwarded-for'] }));
};

beforeAll(async () => {
  const reads = await replica('read', read('read'));
  // reads of /api/cut lose their connection here, and are answered by `reads`
  const cutting = await replica('cutting', (req, res) => (req.url === '/api/cut' ? void res.socket?.destroy() : read('cutting')(req, res)));
  const writes = await replica('write', (req, res) => {
    if (req.url === '/api/cut') return void res.socket?.destroy();
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () =>
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ from: 'write', body, type: req.headers['content-type'] })),
    );
  });
  // nothing listens here: a replica that is down
  const gone = `http://127.0.0.1:${await freePort()}`;
  const query = new ReplicaSet('query-service', [reads, cutting], logger);
  const command = new ReplicaSet('command-service', [gone, writes], logger);
  sets.push(query, command);
  gateway = createHttpServer({ logger });
  await gateway.register(apiProxy({ command, query, trustProxy: () => false }), { prefix: '/api' });
  await gateway.register(discoveryProxy({ query, trustProxy: () => false }));
  // a service none of whose replicas is there
  const nowhere = new ReplicaSet('nowhere', [gone], logger);
  sets.push(nowhere);
  await gateway.register(apiProxy({ command: nowhere, query: nowhere, trustProxy: () => false }), { prefix: '/nowhere' });
  base = await gateway.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  // as the public port does (public-port.ts): the request whose client went away was never answered,
  // and a Fastify that listens itself waits for its connection
  gateway?.server.closeAllConnections();
  await gateway?.close();
  await Promise.all(sets.map((set) => set.close()));
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

describe('the gateway’s sitemap and feeds (docs/seo.md)', () => {
  it('sends their reads as they came to a query replica, and nothing else at the top level', async () => {
    for (const path of ['/sitemap.xml', '/sitemaps/pages-2.xml', '/feeds/posts.xml', '/feeds/tags/C%23.xml?x=1']) {
      const answer = await fetch(`${base}${path}`);
      expect(answer.status, path).toBe(200);
      expect(((await answer.json()) as { path: string }).path).toBe(path);
    }
    expect((await fetch(`${base}/sitemaps.xml`)).status).toBe(404);
    expect((await fetch(`${base}/feeds/posts.xml`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the gateway’s /api proxy', () => {
  it('sends a write’s bytes as they came, to a replica that is there, when the other is down', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${base}/api/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"title": "as sent" }',
      });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({ from: 'write', body: '{"title": "as sent" }', type: 'application/json; charset=utf-8' });
    }
  });

  it('tells the replica who the client is (X-Forwarded-For), whatever the client said', async () => {
    const answer = await fetch(`${base}/api/posts?page=2`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await answer.json()).toMatchObject({ path: '/api/posts?page=2', forwardedFor: '127.0.0.1' });
  });

  it('sends a read whose connection was cut to the other replica', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${base}/api/cut`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ from: 'read', path: '/api/cut' });
    }
  });

  it('answers a write whose connection was cut 502 UNAVAILABLE, never sending it again itself', async () => {
    asked.length = 0;
    const answer = await fetch(`${base}/api/cut`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await answer.json()).toEqual({
      error: { code: 'UNAVAILABLE', message: 'The service’s answer was cut off; send the request again (with the same Idempotency-Key)' },
    });
    expect(asked.filter((line) => line.endsWith('POST /api/cut'))).toEqual(['write POST /api/cut']);
  });

  it('answers 503 UNAVAILABLE, with Retry-After, when no replica of the service is there', async () => {
    for (const method of ['GET', 'POST']) {
      const answer = await fetch(`${base}/nowhere/posts`, {
        method,
        ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(await answer.json()).toEqual({ error: { code: 'UNAVAILABLE', message: 'The service is unavailable; try again shortly' } });
    }
  });

  it('keeps its connections to the replicas open and sends request after request over them', async () => {
    apiSockets.clear();
    // (a replica the tests above took out takes no reads until its next /readyz: count both replicas' connections)
    const opened = () => [...apiSockets.values()].reduce((sum, sockets) => sum + sockets.size, 0);
    for (let i = 0; i < 100; i++) expect((await fetch(`${base}/api/posts?page=${i}`)).status).toBe(200);
    // one after the other: one connection to each replica (another if a /readyz was on it at the time), not one a request
    expect(opened()).toBeLessThanOrEqual(4);
    // 30 at once, three times: the connections the first round opened carry the next two
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${base}/api/posts?page=${i}`)));
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    }
    expect(opened()).toBeLessThanOrEqual(30 + 4);
  });

  it('goes on answering when a client goes away before its answer has come', async () => {
    const leaving = new AbortController();
    const early = fetch(`${base}/api/slow`, { signal: leaving.signal }).catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 100));
    leaving.abort();
    expect(await early).toBe('AbortError');
    // the replica's late answer meets a closed request: nothing breaks
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await fetch(`${base}/api/posts`)).status).toBe(200);
  });
});
