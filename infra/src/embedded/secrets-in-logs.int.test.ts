import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamTicket } from '@forum/contracts';
import { authorizationRequest, CookieJar, exchangeCode, followToApp, formAction, formValue, mailLinkFor } from '@forum/identity/testing';
import { freePort } from '@forum/platform/embedded-postgres';
import { createTestDatabase } from '@forum/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openStream } from '../testing/sse-client.ts';

/**
 * No secret in any log line of any process: a member's whole journey (register, verify the email by
 * the mail's link, sign in with a code and PKCE, refresh, open their stream with a ticket, forget the
 * password and set a new one by the mail's link, sign in with the password, sign out with an
 * id_token_hint) against `npm start`'s entry and `npm run start:replicated`'s, each a process of its
 * own at LOG_LEVEL=trace with everything it (and its services) wrote to stdout and stderr kept; then
 * every secret the journey saw is looked for in that output.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const ENTRIES = {
  'npm start': path.join(here, 'main.ts'),
  'npm run start:replicated': path.join(here, '../replicated/main.ts'),
} as const;

interface RunningEntry {
  readonly base: string;
  readonly issuer: string;
  /** Everything the process and its children wrote so far. */
  output(): string;
  stop(): Promise<void>;
}

const running: RunningEntry[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((entry) => entry.stop()));
});

/** An entry in a process of its own on a fresh database, answering /readyz. */
async function startEntry(entry: string, database: { url: string }): Promise<RunningEntry> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATABASE_URL: database.url,
      OIDC_ISSUER: '',
      SMTP_URL: '',
      DEMO_DATA: 'false',
      REPLICAS: '1',
      LOG_LEVEL: 'trace',
      LOG_FORMAT: 'json',
      TEST_LOG: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${base}/readyz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${entry} not ready in 240 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { base, issuer: `${base}/realms/forum`, output: () => output, stop };
}

/** The secrets the journey met, each under what it is. */
type Secrets = Map<string, string>;

/** A browser on the forum: its cookies kept, no redirect followed. */
function browserOf(base: string, jar = new CookieJar()) {
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(url, base), { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header } });
    jar.store(res);
    return res;
  };
  return {
    jar,
    get: (url: string) => send(url),
    postForm: (url: string, form: Record<string, string>) =>
      send(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }),
  };
}
type Browser = ReturnType<typeof browserOf>;

/** Follows the realm's redirects back to the app, and loads the app's page there as a browser does (with the code in its query). */
async function backAtApp(browser: Browser, first: Response, base: string): Promise<URL> {
  const { appUrl, response } = await followToApp(first, browser.jar, base);
  if (!appUrl) throw new Error(`stopped at ${response.status}: ${await response.text()}`);
  await (await browser.get(appUrl.href)).arrayBuffer();
  return appUrl;
}

/** An authorization request of a standard client: code, PKCE, the answer in the query string (which the server sees). */
const queryModeRequest = (forum: RunningEntry, path: 'auth' | 'registrations') =>
  authorizationRequest({ origin: forum.base, issuer: forum.issuer }, { path, redirectUri: `${forum.base}/about`, extra: { response_mode: 'query' } });
type SignInRequest = ReturnType<typeof queryModeRequest>;

interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token: string;
}

async function tokenCall(issuer: string, form: Record<string, string>): Promise<Tokens> {
  const res = await fetch(`${issuer}/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams(form) });
  if (res.status !== 200) throw new Error(`token endpoint: ${res.status} ${await res.text()}`);
  return (await res.json()) as Tokens;
}

/** The tokens of an answer (a password grant's has no refresh token). */
const keep = (secrets: Secrets, what: string, tokens: Partial<Tokens>) => {
  for (const [name, token] of [
    ['access token', tokens.access_token],
    ['ID token', tokens.id_token],
    ['refresh token', tokens.refresh_token],
  ] as const) {
    if (token) secrets.set(`${what}: ${name}`, token);
  }
};

/** The code of a sign-in that came back to the app, its state checked, exchanged with its verifier; every secret kept. */
async function exchange(browser: Browser, issuer: string, back: URL, request: SignInRequest, secrets: Secrets, what: string): Promise<Tokens> {
  expect(back.searchParams.get('state')).toBe(request.state);
  const code = back.searchParams.get('code')!;
  expect(code).toBeTruthy();
  secrets.set(`${what}: authorization code`, code);
  secrets.set(`${what}: code verifier`, request.verifier);
  secrets.set(`${what}: state`, request.state);
  const tokens = await exchangeCode({ issuer, postForm: browser.postForm }, code, request);
  keep(secrets, what, tokens);
  return tokens;
}

/**
 * The browser's cookies at the realm. Not the interaction cookies themselves: their value is the
 * pending sign-in's id, which is in the sign-in page's address by design; their signature cookies
 * beside them are what a forger lacks.
 */
const cookiesOf = (browser: Browser, secrets: Secrets, what: string) => {
  for (const pair of browser.jar.header.split('; ').filter(Boolean)) {
    const [name = '', ...value] = pair.split('=');
    if (!['forum_idp_interaction', 'forum_idp_resume'].includes(name)) secrets.set(`${what}: cookie ${name}`, value.join('='));
  }
};

/** The member's whole journey through the forum at `base`; the secrets it met. */
async function journey(forum: RunningEntry): Promise<Secrets> {
  const { base, issuer } = forum;
  const secrets: Secrets = new Map();
  const email = `careful-${randomBytes(4).toString('hex')}@forum.test`;
  const password = `Journey#${randomBytes(6).toString('hex')}`;
  secrets.set('the password', password);

  // register on the register page, and come back to the app with a code
  const newcomer = browserOf(base);
  const registration = queryModeRequest(forum, 'registrations');
  let res = await newcomer.get(registration.url);
  while (res.status === 303 && !/login-actions\/registration\//.test(res.headers.get('location') ?? '')) res = await newcomer.get(res.headers.get('location')!);
  const registerPage = await (await newcomer.get(res.headers.get('location')!)).text();
  secrets.set('the register form: CSRF token', formValue(registerPage, 'csrf'));
  const registered = await newcomer.postForm(formAction(registerPage), {
    csrf: formValue(registerPage, 'csrf'),
    name: 'Careful Member',
    photo: 'https://img.example/careful.png',
    email,
    password,
    'password-confirm': password,
  });
  const first = await exchange(newcomer, issuer, await backAtApp(newcomer, registered, base), registration, secrets, 'registration');
  cookiesOf(newcomer, secrets, 'registration');
  expect((await fetch(`${base}/api/me`, { headers: { Authorization: `Bearer ${first.access_token}` } })).status).toBe(200);
  // the apps register a member with the forum after each sign-in
  expect((await fetch(`${base}/api/me/registration`, { method: 'POST', headers: { Authorization: `Bearer ${first.access_token}` } })).status).toBe(200);

  // the mail's link verifies the email
  const mailbox = { issuer, get: (url: string) => fetch(new URL(url, base), { redirect: 'manual' }) };
  const verifyLink = await mailLinkFor(mailbox, email, 'verify-email', 15_000);
  secrets.set('the verification key', new URL(verifyLink).searchParams.get('key')!);
  expect((await fetch(verifyLink)).status).toBe(200);

  // sign in on the login page (another browser), code and PKCE, then refresh
  const browser = browserOf(base);
  const signIn = queryModeRequest(forum, 'auth');
  const loginPage = await (await browser.get((await browser.get(signIn.url)).headers.get('location')!)).text();
  const signedIn = await browser.postForm(formAction(loginPage), { csrf: formValue(loginPage, 'csrf'), email, password });
  const session = await exchange(browser, issuer, await backAtApp(browser, signedIn, base), signIn, secrets, 'sign-in');
  cookiesOf(browser, secrets, 'sign-in');
  const refreshed = await tokenCall(issuer, { grant_type: 'refresh_token', client_id: 'forum-web', refresh_token: session.refresh_token });
  keep(secrets, 'refresh', refreshed);

  // the member's own stream, opened with a ticket
  const ticketAnswer = await fetch(`${base}/api/stream/ticket`, { headers: { Authorization: `Bearer ${refreshed.access_token}` } });
  const { ticket } = StreamTicket.parse(await ticketAnswer.json());
  secrets.set('the stream ticket', ticket);
  const stream = await openStream(base, `/api/stream?topics=me&ticket=${encodeURIComponent(ticket)}`);
  expect(stream.status).toBe(200);
  await stream.next((message) => message.event === 'ready');
  stream.close();

  // forgot password: the mail's link, a new password
  const forgetful = browserOf(base);
  const forgotPage = await (await forgetful.get(`${issuer}/login-actions/reset-credentials`)).text();
  expect((await forgetful.postForm(formAction(forgotPage), { csrf: formValue(forgotPage, 'csrf'), email })).status).toBeLessThan(400);
  const resetLink = await mailLinkFor(mailbox, email, 'action-token', 15_000);
  const key = new URL(resetLink).searchParams.get('key')!;
  secrets.set('the reset key', key);
  const resetPage = await (await forgetful.get(resetLink)).text();
  const newPassword = `Renewed#${randomBytes(6).toString('hex')}`;
  secrets.set('the new password', newPassword);
  const reset = await forgetful.postForm(formAction(resetPage), {
    csrf: formValue(resetPage, 'csrf'),
    key,
    password: newPassword,
    'password-confirm': newPassword,
  });
  expect(reset.status).toBe(303);
  expect(await (await forgetful.get(reset.headers.get('location')!)).text()).toContain('Your password has been updated');
  cookiesOf(forgetful, secrets, 'reset');

  // a script's sign-in with the new password, and a wrong password refused
  keep(
    secrets,
    'password grant',
    await tokenCall(issuer, { grant_type: 'password', client_id: 'forum-cli', username: email, password: newPassword, scope: 'openid' }),
  );
  const wrong = `Wrong#${randomBytes(6).toString('hex')}`;
  secrets.set('a wrong password', wrong);
  const refused = await fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password: wrong }),
  });
  expect(refused.status).toBe(400);

  // sign out by link with the session's own id_token_hint (keycloak-js's logout)
  const again = browserOf(base);
  const lastSignIn = queryModeRequest(forum, 'auth');
  const lastPage = await (await again.get((await again.get(lastSignIn.url)).headers.get('location')!)).text();
  const lastSignedIn = await again.postForm(formAction(lastPage), { csrf: formValue(lastPage, 'csrf'), email, password: newPassword });
  const last = await exchange(again, issuer, await backAtApp(again, lastSignedIn, base), lastSignIn, secrets, 'last sign-in');
  cookiesOf(again, secrets, 'last sign-in');
  const logoutUrl = `${issuer}/protocol/openid-connect/logout?${new URLSearchParams({ client_id: 'forum-web', post_logout_redirect_uri: `${base}/`, id_token_hint: last.id_token }).toString()}`;
  const logoutPage = await (await again.get(logoutUrl)).text();
  const signedOut = await again.postForm(/<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(logoutPage)![1]!, {
    xsrf: formValue(logoutPage, 'xsrf'),
    logout: 'yes',
  });
  expect(signedOut.headers.get('location')).toBe(`${base}/`);
  return secrets;
}

describe('the log of a whole journey', () => {
  for (const [name, entry] of Object.entries(ENTRIES)) {
    it(`of ${name} holds none of the secrets the journey met: keys, codes, verifiers, tokens, tickets, passwords, cookies`, { timeout: 600_000 }, async () => {
      const database = await createTestDatabase('secretlogs');
      try {
        const forum = await startEntry(entry, database);
        running.push(forum);
        const secrets = await journey(forum);
        await forum.stop();
        const log = forum.output();
        // the journey's requests are in the log, with what they carried left out
        for (const written of [
          '/login-actions/action-token?key=',
          '/login-actions/verify-email?key=',
          'id_token_hint=',
          '/about?',
          '/api/stream?topics=me&ticket=',
        ]) {
          expect(log, `no request with ${written} logged`).toContain(written);
        }
        const found = [...secrets].filter(([, value]) => value.length >= 8 && log.includes(value)).map(([what]) => what);
        expect(found, `secrets written to the log of ${name}`).toEqual([]);
      } finally {
        await database.drop();
      }
    });
  }
});
