import { PASSWORD_MISMATCH_MESSAGE } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { createServer, type Socket } from 'node:net';
import { RESET_SENT_MESSAGE } from './messages.ts';
import { PASSWORD, NEW_PASSWORD, address, BREAKING, openLoginPage, mailboxLinkFor, refusedTo, useAccountsRealm } from './flows-test-support.ts';
import {
  alertOf,
  authorizationRequest,
  codeOf,
  CookieJar,
  exchangeCode,
  fieldErrorOf,
  followToApp,
  formAction,
  formValue,
  uniqueEmail,
  type Harness,
} from './test-support.ts';

let h: Harness;
useAccountsRealm((started) => (h = started));

/** The lines of the page's green notice, if any. */
const noticeOf = (html: string) =>
  /<div class="notice" role="status">(.*?)<\/div>/s
    .exec(html)?.[1]!
    .split(/<\/?p>/)
    .filter(Boolean) ?? null;

describe('forgot password', () => {
  async function requestReset(email: string, jar = new CookieJar(), from = address()) {
    const form = await h.get(`${h.issuer}/login-actions/reset-credentials`, jar);
    expect(form.status).toBe(200);
    const html = await form.text();
    return h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email }, jar, { 'x-forwarded-for': from });
  }

  it('mails a one-time link (development mailbox), the new password replaces the old one, sessions end, the link works once', async () => {
    const email = uniqueEmail('forgetful');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Forgetful' });
    // a browser session with a refresh token, to see it end
    const browser = new CookieJar();
    const signIn = await openLoginPage(h, browser);
    const signedIn = await h.postForm(formAction(signIn.html), { csrf: formValue(signIn.html, 'csrf'), email, password: PASSWORD }, browser, {
      'x-forwarded-for': address(),
    });
    const back = await followToApp(signedIn, browser, h.origin);
    const before = await exchangeCode(h, codeOf(back.appUrl!, signIn.request), signIn.request);

    // from the login page's link
    const jar = new CookieJar();
    const login = await openLoginPage(h, jar);
    const forgotHref = /href="([^"]+)">Forgot password\?<\/a>/.exec(login.html)![1]!.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));
    const forgot = await h.get(forgotHref, jar);
    const forgotHtml = await forgot.text();
    expect(forgot.headers.getSetCookie().join('\n')).toMatch(/forum_idp_csrf=[\w-]+; Path=\/realms\/forum; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    const sent = await h.postForm(
      formAction(forgotHtml),
      { csrf: formValue(forgotHtml, 'csrf'), email, interaction: formValue(forgotHtml, 'interaction') },
      jar,
      {
        'x-forwarded-for': address(),
      },
    );
    expect(sent.status).toBe(200);
    const sentHtml = await sent.text();
    // #39 edge 11: one message, the spec's (§8), and nothing that speaks of whether the account exists
    expect(noticeOf(sentHtml)).toEqual([RESET_SENT_MESSAGE]);
    expect(sentHtml).not.toMatch(/if an account exists/i);

    const mailbox = await (await h.get(`${h.issuer}/mailbox`)).text();
    expect(mailbox).toContain('For development only.');
    const link = await mailboxLinkFor(h, email);
    expect(link).toMatch(new RegExp(`^${h.issuer}/login-actions/action-token\\?key=[\\w-]{43}$`));
    // only a hash of the token is stored
    const key = new URL(link).searchParams.get('key')!;
    const stored = await h.db.withSchema('identity').from('action_tokens').select('token_hash');
    expect(stored.some((row: { token_hash: string }) => row.token_hash.includes(key))).toBe(false);

    const resetJar = new CookieJar();
    const resetPage = await h.get(link, resetJar);
    expect(resetPage.status).toBe(200);
    const resetHtml = await resetPage.text();
    expect(resetHtml).toContain(email);
    const action = formAction(resetHtml);
    const csrf = formValue(resetHtml, 'csrf');
    expect((await refusedTo(h, action, { csrf, key, password: 'weak', 'password-confirm': 'weak' }, resetJar)).href).toBe(link);
    // the same rules as registration, and the confirmation
    for (const { password, message } of BREAKING) {
      const weak = await h.postForm(action, { csrf, key, password, 'password-confirm': password }, resetJar);
      expect(weak.status).toBe(400);
      expect(fieldErrorOf(await weak.text(), 'password')).toBe(message);
    }
    const mismatch = await h.postForm(action, { csrf, key, password: NEW_PASSWORD, 'password-confirm': PASSWORD }, resetJar);
    expect(fieldErrorOf(await mismatch.text(), 'password-confirm')).toBe(PASSWORD_MISMATCH_MESSAGE);
    // without the CSRF token: refused, nothing changes
    const forged = await h.postForm(action, { key, password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD }, resetJar);
    expect(forged.status).toBe(403);
    expect((await h.passwordGrant(email, PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);

    const done = await h.postForm(action, { csrf, key, password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD }, resetJar);
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    expect(doneHtml).toContain('Your password has been updated');
    // the pending sign-in of the browser that asked is still there: the page leads back to it
    expect(doneHtml).toContain(`href="${login.pageUrl}"`);

    const old = await h.passwordGrant(email, PASSWORD, { 'x-forwarded-for': address() });
    expect(old.status).toBe(400);
    expect(((await old.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await h.passwordGrant(email, NEW_PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);

    // the refresh token and the browser session from before the reset are gone
    const refresh = await h.postForm(`${h.issuer}/protocol/openid-connect/token`, {
      grant_type: 'refresh_token',
      client_id: 'forum-web',
      refresh_token: before.refresh_token,
    });
    expect(refresh.status).toBe(400);
    const silent = authorizationRequest(h, { extra: { prompt: 'none' } });
    const silentBack = await followToApp(await h.get(silent.url, browser), browser, h.origin);
    expect(new URLSearchParams(silentBack.appUrl!.hash.slice(1)).get('error')).toBe('login_required');

    // used: refused with a clear page, on GET and POST
    const reused = await h.get(link, new CookieJar());
    expect(reused.status).toBe(410);
    expect(await reused.text()).toContain('already been used');
    const reusedPost = await h.postForm(action, { csrf, key, password: 'Another#Pass1', 'password-confirm': 'Another#Pass1' }, resetJar);
    expect(reusedPost.status).toBe(410);
    expect((await h.passwordGrant(email, NEW_PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const known = uniqueEmail('known');
    await h.realm.accounts.create({ email: known, password: PASSWORD, name: 'Known' });
    const unknown = uniqueEmail('unknown');
    const a = await requestReset(known);
    const b = await requestReset(unknown);
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(await b.text()).toBe(await a.text());
    await mailboxLinkFor(h, known);
    await h.restart(); // closing the realm waits for the background work of both requests
    const mailbox = await (await h.get(`${h.issuer}/mailbox`)).text();
    expect(mailbox).not.toContain(unknown);
  });

  it('#39 edge 11: answers a known email as fast as an unknown one: nothing waits for the account or its mail', { timeout: 60_000 }, async () => {
    // a mail server that accepts connections and never says a word: a request that waited for the mail would hang
    const stuck = new Set<Socket>();
    const silent = createServer((socket) => stuck.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    await h.restart({ mail: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Forum <no-reply@forum.local>' } });
    try {
      const known = uniqueEmail('known-slow-mail');
      await h.realm.accounts.create({ email: known, password: PASSWORD, name: 'Known' });
      const unknown = uniqueEmail('unknown-slow-mail');
      const timed = async (email: string) => {
        const started = performance.now();
        const res = await requestReset(email);
        return { res, ms: performance.now() - started, html: await res.text() };
      };
      const a = await timed(known);
      // the mail to the known account is under way, and stuck
      await expect.poll(() => stuck.size, { timeout: 10_000 }).toBe(1);
      const b = await timed(unknown);
      expect(a.res.status).toBe(200);
      expect(b.html).toBe(a.html);
      expect(noticeOf(a.html)).toEqual([RESET_SENT_MESSAGE]);
      // both answered while the mail server has not answered at all (its greeting waits 30 s)
      expect(a.ms).toBeLessThan(5_000);
      expect(b.ms).toBeLessThan(5_000);
    } finally {
      for (const socket of stuck) socket.destroy();
      silent.close();
      await h.restart({ mail: { from: 'Forum <no-reply@forum.local>' } });
    }
  });

  it('refuses an expired link and an unknown one with a clear page', async () => {
    const email = uniqueEmail('slow');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Slow' });
    await requestReset(email);
    const link = await mailboxLinkFor(h, email);
    await h.db
      .withSchema('identity')
      .from('action_tokens')
      .update({ expires_at: h.db.raw("now() - interval '1 minute'") });
    const expired = await h.get(link);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
    const bogus = await h.get(`${h.issuer}/login-actions/action-token?key=${'A'.repeat(43)}`);
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).toContain('not valid');
  });

  it('refuses a forgot-password form without its CSRF token', async () => {
    const jar = new CookieJar();
    await h.get(`${h.issuer}/login-actions/reset-credentials`, jar);
    const res = await h.postForm(`${h.issuer}/login-actions/reset-credentials`, { email: 'alice@forum.local' }, jar);
    expect(res.status).toBe(403);
    // a token from another browser (other cookie) does not fit either
    const other = new CookieJar();
    const otherHtml = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, other)).text();
    const crossed = await h.postForm(`${h.issuer}/login-actions/reset-credentials`, { email: 'alice@forum.local', csrf: formValue(otherHtml, 'csrf') }, jar);
    expect(crossed.status).toBe(403);
  });

  it('throttles forgot-password requests per client address', async () => {
    const from = address();
    for (let i = 0; i < 5; i++) expect((await requestReset(uniqueEmail('flood'), new CookieJar(), from)).status).toBe(200);
    const refused = await requestReset(uniqueEmail('flood'), new CookieJar(), from);
    expect(refused.status).toBe(429);
    expect(alertOf(await refused.text())).toMatch(/^Too many requests\. Try again in \d+ minutes?\.$/);
    expect((await requestReset(uniqueEmail('flood'), new CookieJar(), address())).status).toBe(200);
  });

  it('keeps the development mailbox to this machine', async () => {
    const res = await h.get(`${h.issuer}/mailbox`, undefined, { 'x-forwarded-for': '203.0.113.9' });
    expect(res.status).toBe(403);
  });
});
