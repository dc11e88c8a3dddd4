import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from './oidc-provider.ts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertOf,
  authorizationRequest,
  codeOf,
  CookieJar,
  exchangeCode,
  followToApp,
  formAction,
  formValue,
  startHarness,
  type Harness,
} from './test-support.ts';

/**
 * 'Continue with Google' end to end, against a second OpenID provider (oidc-provider) on
 * another port standing in for Google. Its "login" signs in whichever account the test chose.
 */
const CLIENT_ID = 'forum-realm.apps.example';
const CLIENT_SECRET = randomBytes(24).toString('base64url');
const PASSWORD = 'Forum#2026';

interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture: string;
}

let h: Harness;
let standIn: Server;
let googleIssuer: string;
const googleAccounts = new Map<string, GoogleAccount>();
let nextLogin: { accountId: string } | { cancel: true } = { cancel: true };
let standInLogins = 0;

async function startStandIn(redirectUri: string): Promise<void> {
  standIn = createServer();
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  googleIssuer = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(googleIssuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'standin', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims: false, // like Google: email and profile in the ID token
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = googleAccounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ accountId: ctx.oidc.session!.accountId!, clientId: ctx.oidc.client!.clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  standIn.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      void callback(req, res);
      return;
    }
    void (async () => {
      standInLogins++;
      const result = 'cancel' in nextLogin ? { error: 'access_denied', error_description: 'the user said no' } : { login: { accountId: nextLogin.accountId } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
}

function googleUser(overrides: Partial<GoogleAccount> = {}): GoogleAccount {
  const sub = String(100_000_000 + Math.floor(Math.random() * 900_000_000));
  const account = {
    sub,
    email: `g${sub}@gmail.example`,
    email_verified: true,
    name: `Google User ${sub}`,
    picture: `https://lh3.example/${sub}.png`,
    ...overrides,
  };
  googleAccounts.set(sub, account);
  return account;
}

beforeAll(async () => {
  // the realm's port is needed for the stand-in's redirect URI, and the stand-in's issuer for the realm: start the realm, then restart it with Google
  h = await startHarness();
  await startStandIn(`${h.issuer}/broker/google/endpoint`);
  await h.restart({ google: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, issuer: googleIssuer } });
  await h.realm.accounts.create({
    email: 'alice@forum.local',
    password: PASSWORD,
    name: 'Alice',
    picture: 'https://example.test/alice.png',
    emailVerified: true,
  });
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => (standIn ? standIn.close(() => resolve()) : resolve()));
});

/** keycloak-js login({ idpHint: 'google' }): straight to the stand-in, back with a code for the app. */
async function signInWithGoogle(account: GoogleAccount | 'cancel', extra: Record<string, string> = { kc_idp_hint: 'google' }) {
  nextLogin = account === 'cancel' ? { cancel: true } : { accountId: account.sub };
  const jar = new CookieJar();
  const request = authorizationRequest(h, { extra });
  const start = await h.get(request.url, jar);
  expect(start.status).toBe(303);
  return { jar, request, start };
}

describe('Google brokering', () => {
  it('skips the login page with kc_idp_hint=google and creates the account on the first Google sign-in', async () => {
    const google = googleUser();
    const { jar, request, start } = await signInWithGoogle(google);
    expect(start.headers.get('location')).toMatch(/^\/realms\/forum\/broker\/google\/login\?interaction=[\w-]+$/);
    const toGoogle = await h.get(start.headers.get('location')!, jar);
    expect(toGoogle.status).toBe(303);
    const upstream = new URL(toGoogle.headers.get('location')!);
    expect(upstream.origin).toBe(googleIssuer);
    expect(upstream.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(upstream.searchParams.get('redirect_uri')).toBe(`${h.issuer}/broker/google/endpoint`);
    expect(upstream.searchParams.get('code_challenge_method')).toBe('S256');
    expect(upstream.searchParams.get('state')).toBeTruthy();
    expect(upstream.searchParams.get('nonce')).toBeTruthy();

    const before = standInLogins;
    const back = await followToApp(toGoogle, jar, h.origin);
    expect(standInLogins).toBe(before + 1);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    const claims = decodeJwt(tokens.id_token);
    expect(claims).toMatchObject({ email: google.email, email_verified: true, name: google.name, picture: google.picture, nonce: request.nonce });

    const account = await h.db<Record<string, unknown>>('accounts').withSchema('identity').where({ email: google.email }).first();
    expect(account).toMatchObject({ id: claims.sub, name: google.name, picture: google.picture, email_verified: true, password_hash: '' });
    const link = await h
      .db<{ provider: string; subject: string; account_id: string }>('federated_identities')
      .withSchema('identity')
      .where({ provider: 'google', subject: google.sub })
      .first();
    expect(link?.account_id).toBe(claims.sub);
    // no password: the password form is closed to it (until a password reset)
    expect((await h.passwordGrant(google.email, PASSWORD)).status).toBe(400);

    // the second time: the same account, through the link
    const again = await signInWithGoogle(google);
    const secondBack = await followToApp(again.start, again.jar, h.origin);
    const second = await exchangeCode(h, codeOf(secondBack.appUrl!, again.request), again.request);
    expect(decodeJwt(second.id_token).sub).toBe(claims.sub);
  });

  it("signs into the existing verified account whose email Google says is verified (from the login page's button); its password stays", async () => {
    const alice = (await h.realm.accounts.findByEmail('alice@forum.local'))!;
    const google = googleUser({ email: 'Alice@Forum.local', name: 'Alice at Google' });
    const { jar, request, start } = await signInWithGoogle(google, {});
    const loginPage = await h.get(start.headers.get('location')!, jar);
    const html = await loginPage.text();
    const href = /<a class="social" id="social-google" href="([^"]+)">/.exec(html)![1]!.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));
    expect(html).toContain('Continue with Google');
    const toGoogle = await h.get(href, jar);
    const back = await followToApp(toGoogle, jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ sub: alice.id, email: 'alice@forum.local', name: 'Alice', email_verified: true });
    // the password still works too
    expect((await h.passwordGrant('alice@forum.local', PASSWORD)).status).toBe(200);
  });

  it('takes an unverified password account with its email back for the verified Google owner: the password set by whoever registered first is dropped and its sessions and refresh tokens end', async () => {
    // someone registers the address first, with a password of theirs, and keeps a browser session and a refresh token
    const email = `victim-${randomBytes(3).toString('hex')}@forum.local`;
    const { id } = await h.realm.accounts.create({ email, password: PASSWORD, name: 'Squatter' });
    expect((await h.passwordGrant(email, PASSWORD)).status).toBe(200);
    const squatter = new CookieJar();
    const request = authorizationRequest(h);
    const loginPage = await h.get((await h.get(request.url, squatter)).headers.get('location')!, squatter);
    const html = await loginPage.text();
    const signedIn = await h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email, password: PASSWORD }, squatter);
    const squatterTokens = await exchangeCode(h, codeOf((await followToApp(signedIn, squatter, h.origin)).appUrl!, request), request);

    // the owner of the mailbox signs in with Google (its email spelled another way)
    const google = googleUser({ email: `${email.toUpperCase()}.`, name: 'Real Owner' });
    const owner = await signInWithGoogle(google);
    const back = await followToApp(owner.start, owner.jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, owner.request), owner.request);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ sub: id, email, email_verified: true });

    const account = await h.db<Record<string, unknown>>('accounts').withSchema('identity').where({ id }).first();
    expect(account).toMatchObject({ email_verified: true, password_hash: '' });
    expect((await h.passwordGrant(email, PASSWORD)).status).toBe(400);
    const refresh = await h.postForm(`${h.issuer}/protocol/openid-connect/token`, {
      grant_type: 'refresh_token',
      client_id: 'forum-web',
      refresh_token: squatterTokens.refresh_token,
    });
    expect(refresh.status).toBe(400);
    const silent = authorizationRequest(h, { extra: { prompt: 'none' } });
    const silentBack = await followToApp(await h.get(silent.url, squatter), squatter, h.origin);
    expect(new URLSearchParams(silentBack.appUrl!.hash.slice(1)).get('error')).toBe('login_required');
  });

  it('refuses a Google account whose email is not verified, with a clear message', async () => {
    const google = googleUser({ email_verified: false });
    const { jar, start } = await signInWithGoogle(google);
    const result = await followToApp(start, jar, h.origin);
    expect(result.appUrl).toBeUndefined();
    expect(result.response!.status).toBe(403);
    const html = await result.response!.text();
    expect(alertOf(html)).toContain('is not verified');
    expect(html).toContain('Sign in to your account'); // the login page, to try another way
    expect(await h.realm.accounts.findByEmail(google.email)).toBeNull();
    // also when an account with that email exists: no takeover by an unverified email
    const squatter = googleUser({ email: 'alice@forum.local', email_verified: false });
    const attempt = await signInWithGoogle(squatter);
    const refused = await followToApp(attempt.start, attempt.jar, h.origin);
    expect(refused.response!.status).toBe(403);
  });

  it('comes back to the login page when the user cancels at Google', async () => {
    const { jar, start } = await signInWithGoogle('cancel');
    const result = await followToApp(start, jar, h.origin);
    expect(result.response!.status).toBe(200);
    expect(alertOf(await result.response!.text())).toBe('Google sign-in was cancelled.');
  });

  it('refuses a callback in another browser than the one that started the sign-in, and a replayed state', async () => {
    const google = googleUser();
    const { jar, start } = await signInWithGoogle(google);
    // walk to the callback, but stop there
    let res = await h.get(start.headers.get('location')!, jar);
    let callback: URL | undefined;
    for (let i = 0; i < 10 && !callback; i++) {
      const next = new URL(res.headers.get('location')!, res.url);
      if (next.pathname === '/realms/forum/broker/google/endpoint') callback = next;
      else {
        res = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header } });
        jar.store(res);
      }
    }
    expect(callback).toBeDefined();
    const elsewhere = await h.get(callback!.href, new CookieJar());
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('expired');
    // the state is used up: the right browser cannot replay it either
    const replay = await h.get(callback!.href, jar);
    expect(replay.status).toBe(400);
    expect(await h.realm.accounts.findByEmail(google.email)).toBeNull();
  });

  it('offers Google on the register page too', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest(h, { path: 'registrations' });
    const toAuth = await h.get(request.url, jar);
    const toPage = await h.get(toAuth.headers.get('location')!, jar);
    const html = await (await h.get(toPage.headers.get('location')!, jar)).text();
    expect(html).toMatch(/<a class="social" id="social-google" href="\/realms\/forum\/broker\/google\/login\?interaction=[\w-]+">/);
  });
});
