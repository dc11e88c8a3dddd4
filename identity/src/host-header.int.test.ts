import { Writable } from 'node:stream';
import { createLogger } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, rawRequest, startHarness, type Harness, type RawAnswer } from './test-support.ts';

/**
 * The realm and the request's Host. A Host that is not a host (RFC 9110 §7.2, RFC 3986 §3.2.2) is
 * refused with 400 on every route, in the route's own shape: the protocol's JSON endpoints and the
 * admin API answer JSON, the pages a page. A well-formed foreign Host (or X-Forwarded-Host) changes
 * nothing: every URL the realm hands out is built from its configured issuer.
 */

/** Error-level lines and up the realm logged while the tests ran (a refused Host is not an error of the realm). */
const errorLines: string[] = [];
const logger = createLogger('identity-test', 'info', {
  format: 'json',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) if ((JSON.parse(line) as { level: number }).level >= 50) errorLines.push(line);
      done();
    },
  }),
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ logger });
});
afterAll(() => h?.close());

const REALM = '/realms/forum';
const OIDC = `${REALM}/protocol/openid-connect`;
const ADMIN = '/admin/realms/forum';
const ACCOUNT = '0b5f3c1e-8d4a-4b6e-9f1a-2c3d4e5f6a7b';

type Route = { method: string; target: string; body?: string; json: boolean };
const form = 'application/x-www-form-urlencoded';
/** Every route of the realm and its admin API, as a request that would be answered (or refused for its own reasons) with a good Host. */
const routes = (): Route[] => {
  const auth = new URL(authorizationRequest(h).url);
  const page = (target: string, method = 'GET', body?: string): Route => ({ method, target, body, json: false });
  const api = (target: string, method = 'GET', body?: string): Route => ({ method, target, body, json: true });
  return [
    api(`${REALM}/.well-known/openid-configuration`),
    api(`${REALM}/.well-known/oauth-authorization-server`),
    page(`${auth.pathname}${auth.search}`),
    page(`${OIDC}/auth/abcdefgh12345678`),
    api(`${OIDC}/token`, 'POST', 'grant_type=password&client_id=forum-cli&username=alice%40forum.local&password=x'),
    api(`${OIDC}/certs`),
    api(`${OIDC}/userinfo`),
    api(`${OIDC}/revoke`, 'POST', 'client_id=forum-web&token=x'),
    api(`${OIDC}/token/introspect`, 'POST', 'client_id=forum-web&token=x'),
    page(`${OIDC}/logout?client_id=forum-web`),
    page(`${OIDC}/logout/confirm`, 'POST', 'xsrf=x&logout=yes'),
    page(`${OIDC}/logout/success`),
    page(`${OIDC}/registrations${auth.search}`),
    page(`${OIDC}/3p-cookies/step1.html`),
    page(`${REALM}/login-actions/authenticate/abcdefgh12345678`),
    page(`${REALM}/login-actions/registration/abcdefgh12345678`),
    page(`${REALM}/login-actions/registration?interaction=abcdefgh12345678`),
    page(`${REALM}/login-actions/reset-credentials`),
    page(`${REALM}/login-actions/action-token?key=abc`),
    page(`${REALM}/login-actions/verify-email?key=abc`),
    page(`${REALM}/broker/google/login?interaction=abcdefgh12345678`),
    page(`${REALM}/broker/google/endpoint?state=abc`),
    page(`${REALM}/mailbox`),
    page(`${REALM}/no-such-page`),
    page(REALM),
    api(`${ADMIN}/users?email=alice%40forum.local`),
    api(`${ADMIN}/users`, 'POST', '{}'),
    api(`${ADMIN}/users/${ACCOUNT}`),
    api(`${ADMIN}/users/${ACCOUNT}`, 'PUT', '{"enabled":false}'),
    api(`${ADMIN}/users/${ACCOUNT}`, 'DELETE'),
    api(`${ADMIN}/no-such-resource`),
  ];
};

const send = (route: Route, host: string | null, lines: string[] = []) =>
  rawRequest(h.origin, {
    method: route.method,
    target: route.target,
    host,
    lines: [...(route.body ? [`Content-Type: ${route.target.startsWith(ADMIN) ? 'application/json' : form}`] : []), ...lines],
    body: route.body,
  });

const what = (route: Route, host: string, answer: RawAnswer) =>
  `${route.method} ${route.target} Host: ${JSON.stringify(host.slice(0, 40))} → ${answer.status} ${answer.body.slice(0, 200)}`;

/** A refusal in the route's shape: OAuth's or the admin API's JSON, or the realm's page. */
function expectRefusedHost(route: Route, host: string, answer: RawAnswer) {
  expect(answer.status, what(route, host, answer)).toBe(400);
  if (route.json) {
    expect(answer.headers['content-type'], what(route, host, answer)).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body) as { error?: string; error_description?: string; errorMessage?: string };
    expect(body.error, what(route, host, answer)).toBe('invalid_request');
    expect(body.error_description ?? body.errorMessage).toBe('The Host header is not a valid host.');
  } else {
    expect(answer.headers['content-type'], what(route, host, answer)).toMatch(/^text\/html/);
    expect(answer.body).toContain('The Host header is not a valid host.');
  }
}

describe('a malformed Host header', () => {
  const malformed = [
    'evil.example:abc',
    'x y',
    '%',
    '%zz.example',
    '[evil',
    '[zz::1]',
    ':3100',
    'evil.example:99999',
    'evil.example:-1',
    '',
    `${'a'.repeat(300)}.example`,
    'ünïcode.example',
    'evil.example/path',
    'user@evil.example',
    'evil.example, other.example',
    'evil.example?x',
    'evil.example#x',
    'evil\\example',
  ];

  it("is refused with 400 on every route of the realm and its admin API, in the route's shape, and nothing is logged as an error", async () => {
    for (const route of routes()) {
      for (const host of malformed) expectRefusedHost(route, host, await send(route, host));
    }
    expect(errorLines).toEqual([]);
  });

  it('two Host lines are refused like one malformed Host', async () => {
    for (const route of routes()) {
      const host = new URL(h.origin).host;
      expectRefusedHost(route, host, await send(route, host, [`Host: evil.example`]));
    }
  });

  it('a NUL or a control character in the Host never reaches the realm: Node answers 400 itself', async () => {
    for (const host of ['evil\u0000.example', 'evil\u0001.example']) {
      const answer = await send(routes()[0]!, host);
      expect(answer.status, JSON.stringify(host)).toBe(400);
    }
    expect(errorLines).toEqual([]);
  });

  it('well-formed hosts still get their answers: names, addresses, IPv6, ports, upper case, no Host in HTTP/1.0', async () => {
    const discovery = routes()[0]!;
    for (const host of [new URL(h.origin).host, 'localhost', 'EXAMPLE.com', '127.0.0.1:80', '[::1]:3000', 'forum.example:', 'xn--nicode-bva.example']) {
      const answer = await send(discovery, host);
      expect(answer.status, what(discovery, host, answer)).toBe(200);
    }
    const old = await rawRequest(h.origin, { target: discovery.target, host: null, httpVersion: '1.0' });
    expect(old.status).toBe(200);
  });
});

describe('a foreign Host or X-Forwarded-Host', () => {
  const discovery = `${REALM}/.well-known/openid-configuration`;
  /** Every URL of the document, by its name. */
  const urlsOf = (document: Record<string, unknown>) =>
    Object.entries(document).filter(([name, value]) => typeof value === 'string' && /(_endpoint|_uri)$/.test(name)) as Array<[string, string]>;

  it.each([
    ['Host: evil.example', 'evil.example', []],
    ['X-Forwarded-Host and X-Forwarded-Proto', null, ['X-Forwarded-Host: evil.example', 'X-Forwarded-Proto: https', 'X-Forwarded-Port: 8443']],
    ['Forwarded', null, ['Forwarded: for=10.0.0.1;host=evil.example;proto=https']],
  ])('%s: the discovery document points every endpoint at the issuer, and may be cached a while', async (_case, host, lines) => {
    const answer = await rawRequest(h.origin, { target: discovery, host: host ?? new URL(h.origin).host, lines });
    expect(answer.status).toBe(200);
    const document = JSON.parse(answer.body) as Record<string, unknown>;
    expect(document.issuer).toBe(h.issuer);
    const urls = urlsOf(document);
    expect(urls.map(([name]) => name)).toEqual(
      expect.arrayContaining(['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'end_session_endpoint']),
    );
    for (const [name, url] of urls) expect(url, name).toMatch(new RegExp(`^${h.issuer}/`));
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
  });

  it('an absolute-form request target names no host the realm uses either', async () => {
    const answer = await rawRequest(h.origin, { target: `http://evil.example${discovery}`, host: 'evil.example' });
    expect(answer.status).toBe(200);
    for (const [name, url] of urlsOf(JSON.parse(answer.body) as Record<string, unknown>)) expect(url, name).toMatch(new RegExp(`^${h.issuer}/`));
  });

  it('the logout confirmation posts to the issuer, whatever the Host', async () => {
    const answer = await rawRequest(h.origin, {
      target: `${OIDC}/logout?client_id=forum-web`,
      host: 'evil.example',
      lines: ['X-Forwarded-Host: evil.example'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`action="${h.issuer}/protocol/openid-connect/logout/confirm"`);
    expect(answer.body).not.toContain('evil.example');
  });
});

describe('a realm behind a proxy that ends TLS (its issuer https, its requests plain http)', () => {
  let behind: Harness;
  beforeAll(async () => {
    behind = await startHarness({ logger, publicOrigin: 'https://forum.example' });
  });
  afterAll(() => behind?.close());

  it('hands out https endpoints of its issuer, whatever the proxy forwards', async () => {
    for (const lines of [[], ['X-Forwarded-Proto: http', 'X-Forwarded-Host: evil.example']]) {
      const answer = await rawRequest(behind.origin, { target: `${REALM}/.well-known/openid-configuration`, host: 'internal:8080', lines });
      expect(answer.status).toBe(200);
      const document = JSON.parse(answer.body) as Record<string, string>;
      expect(document.issuer).toBe('https://forum.example/realms/forum');
      for (const name of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'end_session_endpoint']) {
        expect(document[name], name).toMatch(/^https:\/\/forum\.example\/realms\/forum\/protocol\/openid-connect\//);
      }
    }
  });
});
