import { ErrorBody, type PostsPage } from '@forum/contracts';
import { freePort } from '@forum/platform/embedded-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { scrape } from '../testing/prometheus.ts';
import { GatewayConfig } from './gateway-config.ts';
import { startGateway, type StandaloneGateway } from './gateway.ts';

/**
 * The gateway on its own (`npm run start:gateway`, the distributed layout): the web apps, and /api
 * balanced over the services it is given. Its upstreams here: a test forum (which answers every
 * /api route) and an address where nothing listens, which the gateway must pass over.
 */
let forum: TestForum;
let gateway: StandaloneGateway;
let nowhere: string;

beforeAll(async () => {
  forum = await startTestForum();
  nowhere = `http://127.0.0.1:${await freePort()}`;
  const upstreams = `${nowhere},${forum.url.replace('localhost', '127.0.0.1')}`;
  gateway = await startGateway(
    GatewayConfig.parse({
      PORT: '0',
      OIDC_ISSUER: forum.issuer,
      COMMAND_SERVICE_URLS: upstreams,
      QUERY_SERVICE_URLS: upstreams,
      LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
    }),
  );
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await forum?.stop();
});

const at = (pathname: string, init?: RequestInit) => fetch(`http://127.0.0.1:${gateway.port}${pathname}`, { ...init, signal: AbortSignal.timeout(10_000) });

describe('the gateway on its own', () => {
  it('serves forum-web and its security headers', async () => {
    const page = await at('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('passes reads and writes to a service that answers, over one that does not, and says so in /readyz', async () => {
    const { token } = await forum.newUser('Gateway Writer');
    await forum.call('GET', '/api/me', { token });
    for (let i = 0; i < 3; i++) {
      const created = await at('/api/posts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Through the gateway ${i}`, description: 'Balanced', tags: [] }),
      });
      expect(created.status).toBe(201);
      const { position } = (await created.json()) as { position: string };
      const home = await at('/api/posts?page=1', { headers: { 'X-Min-Position': position } });
      expect(home.status).toBe(200);
      expect(((await home.json()) as PostsPage).posts.map((post) => post.title)).toContain(`Through the gateway ${i}`);
    }
    const ready = (await (await at('/readyz')).json()) as { status: string; checks: Record<string, { ok: boolean; detail: Record<string, string> }> };
    expect(ready.status).toBe('ready');
    expect(ready.checks.commandService!.detail[nowhere]).toBe('down');
    expect(ready.checks.queryService!.detail[nowhere]).toBe('down');
  });

  it('serves its own metrics on METRICS_PORT, never on its public port', async () => {
    expect((await at('/metrics')).status).toBe(404);
    const before = await scrape(gateway.metricsUrl!);
    expect((await at('/api/posts?page=1')).status).toBe(200);
    const after = await scrape(gateway.metricsUrl!);
    const proxied = { route: '/api/*', method: 'GET', status: '200' };
    expect(after.sum('forum_http_request_duration_seconds_count', proxied) - before.sum('forum_http_request_duration_seconds_count', proxied)).toBe(1);
    expect(after.find('forum_readiness_check_ok', { check: 'commandService' })).toHaveLength(1);
    expect(after.samples.every((sample) => sample.labels.service === 'gateway')).toBe(true);
  });

  it("answers the services' own errors as they are", async () => {
    const refused = await at('/api/posts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(ErrorBody.parse(await refused.json()).error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a configuration without services or with an address that is not a URL', () => {
    const base = { OIDC_ISSUER: 'https://id.example.com/realms/forum', QUERY_SERVICE_URLS: 'http://query-service:3002' };
    expect(GatewayConfig.safeParse({ ...base }).success).toBe(false);
    expect(GatewayConfig.safeParse({ ...base, COMMAND_SERVICE_URLS: ' , ' }).success).toBe(false);
    expect(GatewayConfig.safeParse({ ...base, COMMAND_SERVICE_URLS: 'command-service' }).success).toBe(false);
    expect(GatewayConfig.parse({ ...base, COMMAND_SERVICE_URLS: 'http://a:3001/, http://b:3001' }).COMMAND_SERVICE_URLS).toEqual([
      'http://a:3001',
      'http://b:3001',
    ]);
  });
});
