import { CSP_NONCE_PLACEHOLDER, type PostsPage } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { realmLoginPage } from '../testing/realm.ts';
import { cspNonce, securityHeaderProblems, type AnswerKind, type HeaderExpectations } from '../testing/security-headers.ts';
import { EmbeddedConfig } from './config.ts';

/**
 * The browser security headers of every kind of answer of the gateway (docs/security/headers.md),
 * read over real HTTP from the whole forum: both apps' documents and deep links, their files and
 * check-sso pages, /healthz, /readyz, 404s, /api answers of both services (reads, the visitors'
 * cache, commands, errors), and the embedded realm's answers, whose pages keep their own CSP.
 * authorization.int.test.ts checks the same on every call of the API table for every role.
 * A second forum is configured as an operator would in production: PUBLIC_URL https, an external
 * OIDC issuer and CORS_ORIGINS.
 */
const APP_ORIGIN = 'https://app.example.com';
const ISSUER = 'https://sso.example.com/realms/forum';

let forum: TestForum;
let configured: TestForum;
let token: string;
let postId: string;

beforeAll(async () => {
  [forum, configured] = await Promise.all([
    startTestForum(),
    startTestForum({ PUBLIC_URL: 'https://forum.example.com', OIDC_ISSUER: ISSUER, CORS_ORIGINS: `${APP_ORIGIN}, https://other.example.com` }),
  ]);
  token = await forum.tokenFor('alice@forum.local');
  postId = ((await (await forum.api('/api/posts?page=1')).json()) as PostsPage).posts[0]!._id;
});
afterAll(async () => {
  await Promise.all([forum?.stop(), configured?.stop()]);
});

const get = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => forum.api(path, { redirect: 'manual', ...init });

/** The first script of a built app's index.html: one of its assets. */
async function assetOf(documentPath: string): Promise<string> {
  const html = await (await get(documentPath)).text();
  const src = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error(`no module script in ${documentPath}`);
  return src;
}

type Row = [label: string, kind: AnswerKind, request: () => Promise<Response>, status: number];

const rows = (): Row[] => [
  // forum-web: documents and deep links (the app's own not-found page too), files, check-sso
  ['GET /', 'app-document', () => get('/'), 200],
  ['HEAD /', 'app-document', () => get('/', { method: 'HEAD' }), 200],
  ['GET /post/:id', 'app-document', () => get(`/post/${postId}`), 200],
  ['GET /post/:id/comments', 'app-document', () => get(`/post/${postId}/comments`), 200],
  ['GET /dashboard/profile', 'app-document', () => get('/dashboard/profile'), 200],
  ['GET /no/such/page', 'app-document', () => get('/no/such/page'), 200],
  ['GET a forum-web asset', 'strict', async () => get(await assetOf('/')), 200],
  ['GET /favicon.svg', 'strict', () => get('/favicon.svg'), 200],
  ['GET /assets/missing.js', 'strict', () => get('/assets/missing.js'), 404],
  ['GET /silent-check-sso.html', 'check-sso-page', () => get('/silent-check-sso.html'), 200],
  ['GET /silent-check-sso.js', 'strict', () => get('/silent-check-sso.js'), 200],
  // admin-web
  ['GET /admin', 'strict', () => get('/admin'), 301],
  ['GET /assets (a folder)', 'strict', () => get('/assets'), 404],
  ['GET /admin/', 'app-document', () => get('/admin/'), 200],
  ['GET /admin/manage-users', 'app-document', () => get('/admin/manage-users'), 200],
  ['GET an admin-web asset', 'strict', async () => get(await assetOf('/admin/')), 200],
  ['GET /admin/assets/missing.js', 'strict', () => get('/admin/assets/missing.js'), 404],
  ['GET /admin/silent-check-sso.html', 'check-sso-page', () => get('/admin/silent-check-sso.html'), 200],
  // health
  ['GET /healthz', 'strict', () => get('/healthz'), 200],
  ['GET /readyz', 'strict', () => get('/readyz'), 200],
  // /api, read side: reads, the visitors' cache (a second visit, then a revalidation), errors
  ['GET /api/posts?page=1', 'strict', () => get('/api/posts?page=1'), 200],
  ['GET /api/posts?page=1 from the visitors’ cache', 'strict', () => get('/api/posts?page=1'), 200],
  [
    'GET /api/posts?page=1 revalidated',
    'strict',
    async () => get('/api/posts?page=1', { headers: { 'If-None-Match': (await get('/api/posts?page=1')).headers.get('etag') ?? '' } }),
    304,
  ],
  ['GET /api/posts/:id', 'strict', () => get(`/api/posts/${postId}`), 200],
  ['HEAD /api/tags', 'strict', () => get('/api/tags', { method: 'HEAD' }), 200],
  ['GET /api/me without a token', 'strict', () => get('/api/me'), 401],
  ['GET /api/me with a token', 'strict', () => get('/api/me', { token }), 200],
  ['GET /api/me with a forged token', 'strict', () => get('/api/me', { token: 'not.a.jwt' }), 401],
  ['GET /api/admin/stats as a user', 'strict', () => get('/api/admin/stats', { token }), 403],
  ['GET /api/posts?page=0', 'strict', () => get('/api/posts?page=0'), 400],
  ['GET /api/no-such-call', 'strict', () => get('/api/no-such-call'), 404],
  // /api, write side: commands, errors
  ['POST /api/posts without a token', 'strict', () => get('/api/posts', { method: 'POST', json: { title: 'T', description: 'D', tags: [] } }), 401],
  ['POST /api/posts with a bad body', 'strict', () => get('/api/posts', { method: 'POST', token, json: { title: '' } }), 400],
  ['POST /api/comments', 'strict', () => get('/api/comments', { method: 'POST', token, json: { postId, text: 'Headers, checked' } }), 201],
  [
    'POST /api/comments with malformed JSON',
    'strict',
    () => get('/api/comments', { method: 'POST', token, headers: { 'Content-Type': 'application/json' }, body: '{"postId":' }),
    400,
  ],
  ['PUT /api/posts/:id/vote', 'strict', () => get(`/api/posts/${postId}/vote`, { method: 'PUT', token, json: { vote: 'up' } }), 200],
  ['POST /api/contact', 'strict', () => get('/api/contact', { method: 'POST', json: { name: 'Ann', email: 'ann@forum.test', message: 'Hello' } }), 201],
  [
    'POST /api/posts too large',
    'strict',
    () => get('/api/posts', { method: 'POST', token, json: { title: 'Big', description: 'x'.repeat(200_000), tags: [] } }),
    413,
  ],
  ['DELETE /api/no-such-call', 'strict', () => get('/api/no-such-call', { method: 'DELETE', token }), 404],
  ['GET /api/openapi.json', 'strict', () => get('/api/openapi.json'), 200],
  ['GET /api/docs', 'api-docs', () => get('/api/docs'), 200],
  ['GET /api/docs/static/swagger-ui-bundle.js', 'strict', () => get('/api/docs/static/swagger-ui-bundle.js'), 200],
  ['GET /api/docs/json', 'api-docs', () => get('/api/docs/json'), 200],
  ['POST /admin/realms/forum/users without a token', 'strict', () => get('/admin/realms/forum/users', { method: 'POST', json: {} }), 401],
  // the embedded realm: what it answers without a page of its own, its probe, its own pages
  ['GET the realm’s discovery document', 'realm', () => get('/realms/forum/.well-known/openid-configuration'), 200],
  ['GET the realm’s keys', 'realm', () => get('/realms/forum/protocol/openid-connect/certs'), 200],
  [
    'POST the realm’s token endpoint with a wrong password',
    'realm',
    () =>
      get('/realms/forum/protocol/openid-connect/token', {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: 'alice@forum.local', password: 'wrong' }),
      }),
    400,
  ],
  ['GET the realm’s third-party-cookie probe', 'realm-probe', () => get('/realms/forum/protocol/openid-connect/3p-cookies/step1.html'), 200],
  ['GET the realm’s login page', 'realm-page', () => realmLoginPage(forum), 200],
  ['GET the realm’s mailbox page', 'realm-page', () => get('/realms/forum/mailbox'), 200],
  ['GET the realm’s expired-link page', 'realm-page', () => get('/realms/forum/login-actions/registration'), 400],
];

describe('the security headers of the gateway’s answers', () => {
  it('every answer carries the headers of its kind, none missing or weaker', { timeout: 60_000 }, async () => {
    const problems: Record<string, string[]> = {};
    const statuses: Record<string, number> = {};
    const expectedStatuses: Record<string, number> = {};
    for (const [label, kind, request, status] of rows()) {
      const response = await request();
      await response.arrayBuffer();
      statuses[label] = response.status;
      expectedStatuses[label] = status;
      const found = securityHeaderProblems(response.headers, kind);
      if (found.length > 0) problems[label] = found;
    }
    expect(statuses).toEqual(expectedStatuses);
    expect(problems).toEqual({});
  });

  it('an app document carries a fresh nonce per answer, in its CSP and on its tags, and is never cached', async () => {
    for (const documentPath of ['/', `/post/${postId}`, '/admin/']) {
      const [first, second] = await Promise.all([get(documentPath), get(documentPath)]);
      const nonces = [cspNonce(first.headers), cspNonce(second.headers)];
      expect(nonces[0], documentPath).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(nonces[1], documentPath).not.toBe(nonces[0]);
      const html = await first.text();
      expect(html, documentPath).not.toContain(CSP_NONCE_PLACEHOLDER);
      const onTags = [...html.matchAll(/ nonce="([^"]*)"/g)].map((m) => m[1]);
      // the meta tag the apps read it from and the page's styles (the scripts are allowed by origin)
      expect(onTags.length, documentPath).toBeGreaterThanOrEqual(2);
      expect(new Set(onTags), documentPath).toEqual(new Set([nonces[0]]));
      expect(html, documentPath).toContain(`<meta property="csp-nonce" nonce="${nonces[0]}">`);
      // no inline script: every script tag loads a file, or is data (a public page's JSON-LD and handed-over reads, never run)
      expect(html.match(/<script(?![^>]*\b(src=|type="application\/(ld\+)?json"))[^>]*>/g), documentPath).toBeNull();
      expect(first.headers.get('cache-control'), documentPath).toBe('no-store');
      expect(first.headers.get('etag'), documentPath).toBeNull();
      await second.arrayBuffer();
    }
  });

  it('sends no CORS headers by default, even to a page of another origin', async () => {
    for (const [method, path] of [
      ['GET', '/api/tags'],
      ['OPTIONS', '/api/posts'],
    ] as const) {
      const response = await get(path, { method, headers: { Origin: APP_ORIGIN, 'Access-Control-Request-Method': 'POST' } });
      await response.arrayBuffer();
      expect(
        [...response.headers.keys()].filter((name) => name.startsWith('access-control-allow')),
        `${method} ${path}`,
      ).toEqual([]);
    }
  });
});

describe('a forum configured with an https PUBLIC_URL, an external issuer and CORS_ORIGINS', () => {
  const at = (path: string, init: RequestInit = {}) => configured.api(path, { redirect: 'manual', ...init });
  const expectHeaders = async (response: Response, kind: AnswerKind, expectations: HeaderExpectations, label: string) => {
    await response.arrayBuffer();
    expect(securityHeaderProblems(response.headers, kind, { https: true, ...expectations }), label).toEqual([]);
  };

  it('sends HSTS on every answer and names the issuer in the apps’ connect-src and frame-src', async () => {
    await expectHeaders(await at('/'), 'app-document', { issuerOrigin: new URL(ISSUER).origin }, 'GET /');
    await expectHeaders(await at('/admin/dashboard'), 'app-document', { issuerOrigin: new URL(ISSUER).origin }, 'GET /admin/dashboard');
    await expectHeaders(await at('/healthz'), 'strict', {}, 'GET /healthz');
    await expectHeaders(await at('/api/tags'), 'strict', {}, 'GET /api/tags');
    await expectHeaders(await at('/api/me'), 'strict', {}, 'GET /api/me (401)');
  });

  it('answers a configured origin’s calls and preflights on /api with CORS, and nobody else', async () => {
    const allowed = await at('/api/tags', { headers: { Origin: APP_ORIGIN } });
    expect(allowed.headers.get('vary')).toMatch(/\bOrigin\b/);
    expect(allowed.headers.get('access-control-expose-headers')).toContain('X-Event-Position');
    await expectHeaders(allowed, 'strict', { corsOrigin: APP_ORIGIN }, 'GET /api/tags from a configured origin');

    const preflight = await at('/api/posts', {
      method: 'OPTIONS',
      headers: {
        Origin: APP_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,Idempotency-Key,X-Min-Position,X-Correlation-Id,Last-Event-ID',
    );
    await expectHeaders(preflight, 'strict', { corsOrigin: APP_ORIGIN }, 'OPTIONS /api/posts from a configured origin');

    await expectHeaders(await at('/api/tags', { headers: { Origin: 'https://evil.example.com' } }), 'strict', {}, 'GET /api/tags from another origin');
    await expectHeaders(
      await at('/api/me', { headers: { Origin: 'https://app.example.com.evil.example' } }),
      'strict',
      {},
      'GET /api/me from a look-alike origin',
    );
    // CORS is /api's only: the apps and health answers are not for other origins' scripts
    await expectHeaders(await at('/healthz', { headers: { Origin: APP_ORIGIN } }), 'strict', {}, 'GET /healthz from a configured origin');
  });

  it('reads CORS_ORIGINS as a list of origins, none by default, and refuses anything that is not an origin', () => {
    const base = { DATABASE_URL: 'postgres://localhost/forum' };
    expect(EmbeddedConfig.parse(base).CORS_ORIGINS).toEqual([]);
    expect(EmbeddedConfig.parse({ ...base, CORS_ORIGINS: ' https://a.example.com ,http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    for (const wrong of ['https://a.example.com/', 'https://a.example.com/app', '*', 'a.example.com', 'https://user@a.example.com']) {
      expect(EmbeddedConfig.safeParse({ ...base, CORS_ORIGINS: wrong }).success, wrong).toBe(false);
    }
  });
});
