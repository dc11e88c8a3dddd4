import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createKnex, createLogger, TrustProxy, type Knex } from '@forum/platform';
import { createTestDatabase } from '@forum/platform/testing';
import { createIdentityRealm, type IdentityRealm, type IdentityRealmOptions } from './index.ts';

/** Test helpers of the realm's integration tests (real PostgreSQL, real HTTP). Not a test file itself. */

export const AUDIENCE = 'urn:forum:api';
export const logger = createLogger('identity-test', process.env.TEST_LOG ?? 'silent');

/** The realm behind one proxy (the test), which says who the client is in X-Forwarded-For. */
export const ONE_PROXY = TrustProxy.parse('1');

/** A client address of its own for a test's throttles (with `trustProxy: ONE_PROXY`, sent as X-Forwarded-For). */
export const randomAddress = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** An address no other test uses. */
export const uniqueEmail = (name: string) => `${name}-${randomBytes(4).toString('hex')}@forum.local`;

export const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A browser's cookies (by name only: enough for one host in tests). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0\b/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  has(name: string) {
    return this.cookies.has(name);
  }
}

export function formValue(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html) ?? new RegExp(`name="${name}"[^>]* value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no form field ${name} in the page`);
  return match[1]!.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}

export function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error('no form in the page');
  return match[1]!.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}

/** The text of the page's alert, if any. */
export function alertOf(html: string): string | null {
  const match = /<div class="alert" role="alert">([^<]*)<\/div>/.exec(html);
  return match ? match[1]!.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))) : null;
}

/** The inline error under a field, if shown. */
export function fieldErrorOf(html: string, field: string): string | null {
  const match = new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(html);
  return match ? match[1]!.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))) : null;
}

/**
 * Where a form's answer sends the browser back to the form's own page (the realm's post-redirect-get
 * after a refusal), else null.
 */
export function backToForm(res: Response, posted: URL): URL | null {
  const location = res.headers.get('location');
  if (res.status !== 303 || !location) return null;
  const target = new URL(location, posted);
  return target.origin === posted.origin && target.pathname === posted.pathname && target.pathname.includes('/login-actions/') ? target : null;
}

export interface Harness {
  readonly origin: string;
  readonly issuer: string;
  readonly db: Knex;
  realm: IdentityRealm;
  /** A second realm process on the same database (the first is closed), like a restart. */
  restart(options?: Partial<IdentityRealmOptions>): Promise<void>;
  get(url: string, jar?: CookieJar, headers?: Record<string, string>): Promise<Response>;
  /** As a browser posts a form: a refused form's redirect back to its page is followed (backToForm). */
  postForm(url: string, form: Record<string, string>, jar?: CookieJar, headers?: Record<string, string>): Promise<Response>;
  passwordGrant(username: string, password: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<IdentityRealmOptions> = {}): Promise<Harness> {
  const database = await createTestDatabase('identity');
  const db = createKnex(database.url);
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let admin: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  // as the gateway mounts them: each handler gets the whole URL of its prefix and below
  const pathOf = (absolute: string) => {
    const parsed = URL.parse(absolute);
    return parsed ? parsed.pathname + parsed.search : absolute;
  };
  const under = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
  const server = createServer((req, res) => {
    // an absolute-form target is routed by its path, as Node's server hands it over (the realm reads it itself)
    const url = /^https?:\/\//i.test(req.url ?? '') ? pathOf(req.url!) : (req.url ?? '/');
    if (handler && under(url, '/realms/forum')) return handler(req, res);
    if (admin && under(url, '/admin/realms/forum')) return admin(req, res);
    // the app's pages (where sign-ins return to)
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const start = async (extra: Partial<IdentityRealmOptions>) => {
    const realm = await createIdentityRealm({ publicOrigin: origin, db, logger, audience: AUDIENCE, ...options, ...extra });
    handler = realm.handler;
    admin = realm.adminHandler;
    return realm;
  };

  const get = async (url: string, jar?: CookieJar, headers: Record<string, string> = {}) => {
    const res = await fetch(new URL(url, origin), { redirect: 'manual', headers: { ...headers, ...(jar ? { cookie: jar.header } : {}) } });
    jar?.store(res);
    return res;
  };
  const postForm = async (url: string, form: Record<string, string>, jar?: CookieJar, headers: Record<string, string> = {}) => {
    const posted = new URL(url, origin);
    const res = await fetch(posted, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers, ...(jar ? { cookie: jar.header } : {}) },
      body: new URLSearchParams(form).toString(),
    });
    jar?.store(res);
    const back = backToForm(res, posted);
    return back ? get(back.href, jar, headers) : res;
  };

  const harness: Harness = {
    origin,
    issuer: `${origin}/realms/forum`,
    db,
    realm: await start({}),
    async restart(extra = {}) {
      await harness.realm.close();
      harness.realm = await start(extra);
    },
    get,
    postForm,
    passwordGrant: (username, password, headers = {}) =>
      postForm(
        `${origin}/realms/forum/protocol/openid-connect/token`,
        { grant_type: 'password', client_id: 'forum-cli', username, password, scope: 'openid' },
        undefined,
        headers,
      ),
    async close() {
      await harness.realm.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
      await database.drop();
    },
  };
  return harness;
}

/** An authorization request as keycloak-js builds it (PKCE, state, nonce, fragment response mode). */
export function authorizationRequest(
  harness: Pick<Harness, 'origin' | 'issuer'>,
  options: { clientId?: string; redirectUri?: string; path?: 'auth' | 'registrations'; extra?: Record<string, string> } = {},
) {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(12));
  const nonce = base64url(randomBytes(12));
  const redirectUri = options.redirectUri ?? `${harness.origin}/post/7?from=test`;
  const url = new URL(`${harness.issuer}/protocol/openid-connect/${options.path ?? 'auth'}`);
  url.search = new URLSearchParams({
    client_id: options.clientId ?? 'forum-web',
    redirect_uri: redirectUri,
    response_type: 'code',
    response_mode: 'fragment',
    scope: 'openid',
    state,
    nonce,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...options.extra,
  }).toString();
  return { url: url.href, verifier, state, nonce, redirectUri, clientId: options.clientId ?? 'forum-web' };
}

/**
 * Follows redirects (any origin) until one leaves for the app, i.e. a URL on `appOrigin` outside
 * the realm; returns that URL, or the last response when a page answers instead.
 */
export async function followToApp(
  first: Response,
  jar: CookieJar,
  appOrigin: string,
): Promise<{ appUrl: URL; response?: undefined } | { appUrl?: undefined; response: Response }> {
  let res = first;
  for (let hops = 0; hops < 20; hops++) {
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { response: res };
    const next = new URL(location, res.url);
    if (next.origin === appOrigin && !next.pathname.startsWith('/realms/')) return { appUrl: next };
    res = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header } });
    jar.store(res);
  }
  throw new Error('too many redirects');
}

/** The authorization code of a fragment-mode response, after checking state. */
export function codeOf(appUrl: URL, expected: { state: string; redirectUri: string }): string {
  const response = new URLSearchParams(appUrl.hash.slice(1));
  if (`${appUrl.origin}${appUrl.pathname}${appUrl.search}` !== expected.redirectUri)
    throw new Error(`back at ${appUrl.href}, expected ${expected.redirectUri}`);
  if (response.get('error')) throw new Error(`authorization error ${response.get('error')}: ${response.get('error_description')}`);
  if (response.get('state') !== expected.state) throw new Error('state mismatch');
  return response.get('code')!;
}

export async function exchangeCode(
  harness: Pick<Harness, 'postForm' | 'issuer'>,
  code: string,
  request: { verifier: string; redirectUri: string; clientId: string },
): Promise<{ access_token: string; id_token: string; refresh_token: string }> {
  const res = await harness.postForm(`${harness.issuer}/protocol/openid-connect/token`, {
    grant_type: 'authorization_code',
    client_id: request.clientId,
    code,
    redirect_uri: request.redirectUri,
    code_verifier: request.verifier,
  });
  if (res.status !== 200) throw new Error(`code exchange: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; id_token: string; refresh_token: string };
}

/** The action link (`/login-actions/<action>?key=…`) of the newest development-mailbox mail to `email` that has one, once it is there. */
export async function mailLinkFor(
  harness: Pick<Harness, 'get' | 'issuer'>,
  email: string,
  action: 'action-token' | 'verify-email',
  timeoutMs = 5000,
): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const html = await (await harness.get(`${harness.issuer}/mailbox`)).text();
    const links = html
      .split('<article class="mail">')
      .slice(1)
      .filter((article) => article.includes(`To ${email}`))
      .map((article) => new RegExp(`href="([^"]+/login-actions/${action}\\?[^"]+)"`).exec(article)?.[1]);
    const link = links.find(Boolean);
    if (link) return link.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${action} mail for ${email}`);
}

/**
 * Another client of the realm, at another address of this machine (all of 127.0.0.0/8 is loopback):
 * its requests leave from `localAddress`, which the realm sees as their peer (no proxy headers needed).
 */
export function clientAt(harness: Pick<Harness, 'origin' | 'issuer'>, localAddress: string) {
  const send = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }, jar?: CookieJar) =>
    new Promise<Response>((resolve, reject) => {
      const headers = { ...init.headers, ...(jar ? { cookie: jar.header } : {}) };
      const req = httpRequest(new URL(url, harness.origin), { method: init.method ?? 'GET', localAddress, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const one of [value ?? []].flat()) answer.append(name, one);
          const response = new Response(Buffer.concat(chunks), { status: res.statusCode, headers: answer });
          jar?.store(response);
          resolve(response);
        });
      });
      req.on('error', reject);
      req.end(init.body);
    });
  /** As a browser posts a form: a refused form's redirect back to its page is followed (backToForm). */
  const postForm = async (url: string, form: Record<string, string>, jar?: CookieJar) => {
    const res = await send(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() },
      jar,
    );
    const back = backToForm(res, new URL(url, harness.origin));
    return back ? send(back.href, {}, jar) : res;
  };
  return {
    address: localAddress,
    get: (url: string, jar?: CookieJar) => send(url, {}, jar),
    postForm,
    passwordGrant: (username: string, password: string) =>
      postForm(`${harness.issuer}/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'forum-cli', username, password, scope: 'openid' }),
  };
}

/** What a test browses the realm with: the harness, or the same calls through the whole forum. */
export type Browser = Pick<Harness, 'origin' | 'issuer' | 'get' | 'postForm'>;

/** The tokens of the password grant (forum-cli), from an address of its own. */
export async function passwordTokens(harness: Pick<Harness, 'passwordGrant'>, email: string, password: string) {
  const res = await harness.passwordGrant(email, password, { 'x-forwarded-for': randomAddress() });
  expect(res.status, `${email}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as { access_token: string; id_token: string };
}

/** keycloak-js register(): the registrations endpoint, then the register page of the new pending sign-in. */
export async function openRegisterPage(harness: Browser, jar: CookieJar, request = authorizationRequest(harness, { path: 'registrations' })) {
  const start = await harness.get(request.url, jar);
  expect(start.status).toBe(303);
  const auth = new URL(start.headers.get('location')!, harness.origin);
  expect(auth.pathname).toBe('/realms/forum/protocol/openid-connect/auth');
  const toPage = await harness.get(auth.href, jar);
  expect(toPage.status).toBe(303);
  const pageUrl = toPage.headers.get('location')!;
  expect(pageUrl).toMatch(/^\/realms\/forum\/login-actions\/registration\/[\w-]+$/);
  const page = await harness.get(pageUrl, jar);
  expect(page.status).toBe(200);
  return { request, pageUrl, html: await page.text(), page };
}

/**
 * keycloak-js register() with the register page filled in as a person would: back at the app
 * (`redirectUri`) signed in, as today; where it came back and the tokens of the code.
 */
export async function registerThroughThePage(
  harness: Browser,
  account: { email: string; password: string; name: string; photo: string },
  options: { redirectUri?: string; headers?: Record<string, string> } = {},
) {
  const jar = new CookieJar();
  const request = authorizationRequest(harness, { path: 'registrations', redirectUri: options.redirectUri });
  let res = await harness.get(request.url, jar);
  while (res.status === 303 && !/login-actions\/registration\//.test(res.headers.get('location') ?? ''))
    res = await harness.get(res.headers.get('location')!, jar);
  const html = await (await harness.get(res.headers.get('location')!, jar)).text();
  const { email, password, name, photo } = account;
  const submitted = await harness.postForm(
    formAction(html),
    { csrf: formValue(html, 'csrf'), name, photo, email, password, 'password-confirm': password },
    jar,
    options.headers,
  );
  expect(submitted.status).toBe(303);
  const back = await followToApp(submitted, jar, harness.origin);
  return { appUrl: back.appUrl, tokens: await exchangeCode(harness, codeOf(back.appUrl!, request), request) };
}

/** What a raw request got back: the status, the headers (names in lower case) and the body, de-chunked. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A request written straight to the socket, for what fetch and node:http will not send (a malformed
 * or missing Host, two Host lines, an absolute-form target). `host: null` sends no Host line; `lines`
 * are further header lines as written.
 */
export function rawRequest(
  origin: string,
  request: { method?: string; target: string; host: string | null; lines?: string[]; body?: string; httpVersion?: '1.0' | '1.1' },
): Promise<RawAnswer> {
  const { port, hostname } = new URL(origin);
  const body = Buffer.from(request.body ?? '', 'utf8');
  const head = [
    `${request.method ?? 'GET'} ${request.target} HTTP/${request.httpVersion ?? '1.1'}`,
    ...(request.host === null ? [] : [`Host: ${request.host}`]),
    ...(request.lines ?? []),
    ...(body.length ? [`Content-Length: ${body.length}`] : []),
    'Connection: close',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    // written, not ended: a client that half-closes has its request aborted (Node's http server); `Connection: close` ends the exchange
    const socket = connect(Number(port), hostname, () => socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'utf8'), body])));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const answer = Buffer.concat(chunks);
      const split = answer.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = answer
        .subarray(0, split < 0 ? answer.length : split)
        .toString('latin1')
        .split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest = split < 0 ? Buffer.alloc(0) : answer.subarray(split + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
        const parts: Buffer[] = [];
        for (;;) {
          const end = rest.indexOf('\r\n');
          const size = Number.parseInt(rest.subarray(0, end).toString('latin1'), 16);
          if (!size) break;
          parts.push(rest.subarray(end + 2, end + 2 + size));
          rest = rest.subarray(end + 2 + size + 2);
        }
        rest = Buffer.concat(parts);
      }
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: rest.toString('utf8') });
    });
  });
}
