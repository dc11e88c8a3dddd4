import { hasAuthCallback, identityServer, refreshDelayMs, userFromClaims } from '@forum/web-auth';
import { describe, expect, it } from 'vitest';
import { loginRequired, returnPath } from './auth';

// web-auth's pure helpers are tested here: the root vitest config includes the apps' src, not web-auth's.

describe('userFromClaims', () => {
  it('reads the user from the access token: id, email, name, picture and realm roles', () => {
    const user = userFromClaims({
      sub: 'u1',
      email: 'alice@forum.local',
      name: 'Alice Martin',
      picture: 'https://x.test/a.png',
      realm_access: { roles: ['user', 'admin', 7] },
    });
    expect(user).toEqual({
      id: 'u1',
      email: 'alice@forum.local',
      name: 'Alice Martin',
      picture: 'https://x.test/a.png',
      roles: ['user', 'admin'],
      emailVerified: false,
    });
  });

  it('falls back to the ID token, then to given and family name, then to the email', () => {
    expect(userFromClaims({ sub: 'u1' }, { sub: 'u1', name: 'From ID token' })?.name).toBe('From ID token');
    expect(userFromClaims({ sub: 'u1', given_name: 'Bob', family_name: 'Chen' })?.name).toBe('Bob Chen');
    expect(userFromClaims({ sub: 'u1', email: 'carol@forum.local' })).toMatchObject({ name: 'carol', picture: '', roles: [] });
  });

  it('is null without a subject', () => {
    expect(userFromClaims({ sub: 'u1', email_verified: true })?.emailVerified).toBe(true);
    expect(userFromClaims({ sub: 'u1', email_verified: false })?.emailVerified).toBe(false);
    expect(userFromClaims({ sub: 'u1' })?.emailVerified).toBe(false);
    expect(userFromClaims(undefined)).toBeNull();
    expect(userFromClaims({ email: 'x@y.z' })).toBeNull();
  });
});

describe('refreshDelayMs', () => {
  const now = 1_000_000_000_000;
  it('is the time until `ahead` seconds before expiry, with the server clock offset applied', () => {
    expect(refreshDelayMs(now / 1000 + 300, 0, now, 45)).toBe(255_000);
    // the browser clock runs 10 s ahead of the server's: keycloak-js's timeSkew is +10
    expect(refreshDelayMs(now / 1000 + 300, 10, now, 45)).toBe(265_000);
  });
  it('is 0 for a token already inside the window, null without an expiry', () => {
    expect(refreshDelayMs(now / 1000 + 20, 0, now, 45)).toBe(0);
    expect(refreshDelayMs(undefined, 0, now, 45)).toBeNull();
  });
});

describe('identityServer', () => {
  it('is the page origin and the default realm when nothing is configured', () => {
    expect(identityServer(undefined, 'http://localhost:3000', 'forum')).toEqual({ url: 'http://localhost:3000', realm: 'forum' });
    expect(identityServer('  ', 'http://localhost:3000', 'forum')).toEqual({ url: 'http://localhost:3000', realm: 'forum' });
  });
  it('takes a Keycloak base URL or an issuer URL', () => {
    expect(identityServer('https://sso.example.com/', 'https://forum.example.com', 'forum')).toEqual({ url: 'https://sso.example.com', realm: 'forum' });
    expect(identityServer('https://sso.example.com/realms/forum', 'https://forum.example.com', 'x')).toEqual({
      url: 'https://sso.example.com',
      realm: 'forum',
    });
    expect(identityServer('https://example.com/auth/realms/community/', 'https://forum.example.com', 'forum')).toEqual({
      url: 'https://example.com/auth',
      realm: 'community',
    });
  });
});

describe('hasAuthCallback', () => {
  it("sees the realm's answer in the fragment, and nothing else", () => {
    expect(hasAuthCallback('http://localhost/about#state=s1&session_state=x&code=c1')).toBe(true);
    expect(hasAuthCallback('http://localhost/about#error=login_required&state=s1')).toBe(true);
    expect(hasAuthCallback('http://localhost/about')).toBe(false);
    expect(hasAuthCallback('http://localhost/post/1#comments')).toBe(false);
    expect(hasAuthCallback('http://localhost/about?state=s1&code=c1')).toBe(false);
  });
});

describe('returnPath', () => {
  it('keeps paths of this app', () => {
    expect(returnPath('/about')).toBe('/about');
    expect(returnPath('/post/42?x=1#comments')).toBe('/post/42?x=1#comments');
  });
  it('refuses other origins, protocol-relative URLs, the join pages and non-strings', () => {
    for (const value of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'about', '/joinUs', '/joinUs/register', undefined, 42]) {
      expect(returnPath(value), String(value)).toBeNull();
    }
  });
});

describe('loginRequired', () => {
  it('is true for the routes spec §2 guards', () => {
    for (const path of ['/dashboard', '/dashboard/add-post', '/membership', '/leaderboard', '/post/42/comments']) expect(loginRequired(path), path).toBe(true);
    for (const path of ['/', '/about', '/post/42', '/tags/React', '/dashboards']) expect(loginRequired(path), path).toBe(false);
  });
});
