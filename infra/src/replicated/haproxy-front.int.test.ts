import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from '@forum/platform/embedded-postgres';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyInstalled, startHaproxy, type RunningHaproxy } from '../testing/haproxy.ts';
import { haproxyConfig } from './haproxy-config.ts';

/**
 * haproxy with haproxyConfig's configuration in front of stand-ins for the gateway and two query
 * services (plain HTTP servers that count their connections), and an address where nothing listens:
 * where each request goes, that connections to the services are kept and reused, and what it does
 * when a service is not there, is not ready, or cuts a read off (docs/gateway.md, "haproxy in front").
 * haproxy is Debian's package: without it on the PATH these tests are skipped (and say so).
 */
const installed = haproxyInstalled();
if (!installed) console.warn('haproxy-front.int.test.ts skipped: haproxy is not installed (apt-get install haproxy)');

interface StandIn {
  readonly name: string;
  readonly url: string;
  readonly server: Server;
  /** Connections that carried a request other than /readyz (haproxy's health checks open their own). */
  readonly apiSockets: Set<Socket>;
  /** Requests other than /readyz, as 'METHOD /path'. */
  readonly asked: string[];
  ready: boolean;
}

const HEADERS = [
  ['x-content-type-options', 'nosniff'],
  ['content-security-policy', "default-src 'none';frame-ancestors 'none'"],
] as const;

async function standIn(name: string): Promise<StandIn> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stand: StandIn = {
    name,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    server,
    apiSockets: new Set(),
    asked: [],
    ready: true,
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/readyz') return void res.writeHead(stand.ready ? 200 : 503).end();
    stand.apiSockets.add(req.socket);
    stand.asked.push(`${req.method} ${req.url}`);
    if (req.url === '/api/cut' && name === 'query-1') return void req.socket.destroy();
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ from: name, forwardedFor: req.headers['x-forwarded-for'] }));
    });
  });
  return stand;
}

describe.skipIf(!installed)('haproxy in front of the gateway and the query services (haproxyConfig)', () => {
  let gateway: StandIn, query1: StandIn, query2: StandIn;
  let haproxy: RunningHaproxy;
  let base: string;

  beforeAll(async () => {
    [gateway, query1, query2] = await Promise.all([standIn('gateway'), standIn('query-1'), standIn('query-2')]);
    const port = await freePort();
    // a third query service that is not there: reads never see it
    const gone = `http://127.0.0.1:${await freePort()}`;
    const config = haproxyConfig({
      bind: { host: '127.0.0.1', port },
      gateway: gateway.url,
      queryServices: [query1.url, query2.url, gone],
      headers: HEADERS,
    });
    haproxy = await startHaproxy(config, port);
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await haproxy?.stop();
    for (const stand of [gateway, query1, query2]) {
      stand?.server.closeAllConnections();
      stand?.server.close();
    }
  });

  const read = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${base}${path}`, { headers });
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as { from: string; forwardedFor?: string } };
  };

  it('sends the API’s reads to the query services in turn, over connections it keeps, with the client alone in X-Forwarded-For and the gateway’s headers', async () => {
    const from = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const answer = await read(`/api/posts?page=${i}`, { 'x-forwarded-for': '203.0.113.9' });
      expect(answer.status).toBe(200);
      expect(answer.body.forwardedFor).toBe('127.0.0.1');
      for (const [name, value] of HEADERS) expect(answer.headers.get(name)).toBe(value);
      from.set(answer.body.from, (from.get(answer.body.from) ?? 0) + 1);
    }
    expect(from.get('query-1')).toBeGreaterThanOrEqual(90);
    expect(from.get('query-2')).toBeGreaterThanOrEqual(90);
    expect(gateway.asked).toEqual([]);
    // 200 reads one after the other: each service saw them over one connection or two, not one each
    expect(query1.apiSockets.size).toBeLessThanOrEqual(2);
    expect(query2.apiSockets.size).toBeLessThanOrEqual(2);
  });

  it('sends everything else to the gateway: writes, the change stream, the API document and its pages, reads from another origin, the apps', async () => {
    gateway.asked.length = 0;
    const post = await fetch(`${base}/api/posts`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(((await post.json()) as { from: string }).from).toBe('gateway');
    for (const path of ['/api/stream', '/api/openapi.json', '/api/docs', '/api/docs/json', '/', '/admin/', '/api']) {
      expect((await read(path)).body.from, path).toBe('gateway');
    }
    expect((await read('/api/posts', { origin: 'https://elsewhere.example' })).body.from).toBe('gateway');
    expect(gateway.asked).toHaveLength(9);
  });

  it('sends a read whose connection was cut to another query service', async () => {
    for (let i = 0; i < 6; i++) {
      const answer = await read('/api/cut');
      expect(answer.status).toBe(200);
      expect(answer.body.from).toBe('query-2');
    }
  });

  it('takes out a query service whose /readyz is not 2xx, and puts it back when it is', async () => {
    query1.ready = false;
    try {
      // out within the interval (1 s) and a check
      await waitFor(
        async () => (await Promise.all([read('/api/a'), read('/api/b')])).map((answer) => answer.body.from),
        (names) => names.every((name) => name === 'query-2'),
        10_000,
        100,
      );
      const before = query1.asked.length;
      for (let i = 0; i < 20; i++) expect((await read('/api/posts')).body.from).toBe('query-2');
      expect(query1.asked.length).toBe(before);
    } finally {
      query1.ready = true;
    }
    await waitFor(
      async () => (await read('/api/posts')).body.from,
      (name) => name === 'query-1',
      10_000,
      100,
    );
  });
});
