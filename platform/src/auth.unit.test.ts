import { createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWK } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, type TokenVerifier } from './auth.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const issuer = 'http://localhost:3000/realms/forum';
const audience = 'urn:forum:api';
let verify: TokenVerifier;
let sign: (claims: Record<string, unknown>, options?: { exp?: number; alg?: string; key?: PrivateKey }) => Promise<string>;
let otherKey: PrivateKey;
let keys: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  keys = createLocalJWKSet({ keys: [jwk] });
  verify = createTokenVerifier({ issuer, audience, keys });
  sign = (claims, options = {}) =>
    new SignJWT({ email: 'Alice@Forum.local', name: 'Alice', realm_access: { roles: ['user', 'admin'] }, ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: 'k1' })
      .setIssuer((claims.iss as string | undefined) ?? issuer)
      .setAudience((claims.aud as string | undefined) ?? audience)
      .setSubject('u-1')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 300)
      .sign(options.key ?? privateKey);
});

describe('createTokenVerifier', () => {
  it('accepts a valid token and reads the Keycloak-shaped claims', async () => {
    expect(await verify(await sign({}))).toEqual({
      subject: 'u-1',
      email: 'alice@forum.local',
      emailVerified: false,
      name: 'Alice',
      picture: '',
      username: '',
      handle: '',
      roles: ['user', 'admin'],
      clientRoles: {},
    });
    expect((await verify(await sign({ handle: 'alice' }))).handle).toBe('alice');
    expect((await verify(await sign({ handle: 42 }))).handle).toBe('');
  });

  it("reads client roles from Keycloak's resource_access (a service account's realm-management roles), each client only a name", async () => {
    const resourceAccess = JSON.parse('{"realm-management":{"roles":["view-users","manage-users",7]},"account":{},"__proto__":{"roles":["x"]}}') as unknown;
    const principal = await verify(await sign({ resource_access: resourceAccess }));
    expect(principal.clientRoles['realm-management']).toEqual(['view-users', 'manage-users']);
    expect(Object.keys(principal.clientRoles)).toEqual(['realm-management', '__proto__']);
    expect(Object.getPrototypeOf(principal.clientRoles)).toBe(Object.prototype);
    expect((await verify(await sign({ resource_access: 'not an object' }))).clientRoles).toEqual({});
  });

  it('reads email_verified (only true counts) and the email in its normal form', async () => {
    expect(await verify(await sign({ email_verified: true, email: ' Alice@Forum.LOCAL. ' }))).toMatchObject({
      email: 'alice@forum.local',
      emailVerified: true,
    });
    expect(await verify(await sign({ email_verified: 'true' }))).toMatchObject({ emailVerified: false });
  });

  it.each([
    ['an expired token', () => sign({}, { exp: Math.floor(Date.now() / 1000) - 60 }), 'The token has expired'],
    ['a token for another audience', () => sign({ aud: 'account' }), 'The token is not valid'],
    ['a token of another issuer', () => sign({ iss: 'http://evil.test/realms/forum' }), 'The token is not valid'],
    ['a token signed by another key', () => sign({}, { key: otherKey }), 'The token is not valid'],
    [
      'a tampered token',
      async () => {
        const token = await sign({});
        const [header, , signature] = token.split('.');
        return `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'u-2' })).toString('base64url')}.${signature}`;
      },
      'The token is not valid',
    ],
    ['an unsigned token (alg none)', async () => new UnsecuredJWT(decodeJwt(await sign({}))).encode(), 'The token is not valid'],
    ['garbage', () => Promise.resolve('not.a.jwt'), 'The token is not valid'],
  ])('refuses %s with 401 UNAUTHENTICATED', async (_name, token, message) => {
    await expect(verify(await token())).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message });
  });
});

describe('createTokenVerifier: verified tokens kept', () => {
  afterEach(() => vi.useRealTimers());

  /** A verifier on the same keys that counts the signature checks it makes. */
  const counting = (maxAgeMs?: number, kept?: number) => {
    let checks = 0;
    const verifier = createTokenVerifier({
      issuer,
      audience,
      keys: (...args) => (checks++, keys(...args)),
      ...(maxAgeMs && { verifiedMaxAgeMs: maxAgeMs }),
      ...(kept && { verifiedKept: kept }),
    });
    return { verifier, checks: () => checks };
  };

  it('checks a token once and answers it again from memory, the same principal', async () => {
    const { verifier, checks } = counting();
    const token = await sign({});
    const first = await verifier(token);
    expect(await verifier(token)).toEqual(first);
    expect(checks()).toBe(1);
    await verifier(await sign({ name: 'Other' }));
    expect(checks()).toBe(2);
  });

  it('checks it again once it has expired (and refuses it), or after the most it is kept', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { verifier, checks } = counting(60_000);
    const token = await sign({}, { exp: Math.floor(Date.now() / 1000) + 120 });
    await verifier(token);
    vi.setSystemTime(Date.now() + 61_000);
    await verifier(token);
    expect(checks()).toBe(2);
    vi.setSystemTime(Date.now() + 120_000);
    await expect(verifier(token)).rejects.toMatchObject({ status: 401, message: 'The token has expired' });
    expect(checks()).toBe(3);
  });

  it('never answers a kept token past its exp, even within the most it is kept', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { verifier, checks } = counting(60_000);
    const token = await sign({}, { exp: Math.floor(Date.now() / 1000) + 2 });
    await verifier(token);
    // Past exp and the 5 s the verifier allows for the issuer's clock, well within the 60 s.
    vi.setSystemTime(Date.now() + 8_000);
    await expect(verifier(token)).rejects.toMatchObject({ status: 401, message: 'The token has expired' });
    expect(checks()).toBe(2);
  });

  it('keeps at most verifiedKept tokens, dropping the least recently used', async () => {
    const { verifier, checks } = counting(undefined, 2);
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => sign({ name })));
    await verifier(a!);
    await verifier(b!);
    await verifier(c!);
    expect(checks()).toBe(3);
    await verifier(c!);
    await verifier(b!);
    expect(checks()).toBe(3);
    await verifier(a!);
    expect(checks()).toBe(4);
  });

  it('does not keep a token without a kid: which key vouched for it cannot be followed', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    let checks = 0;
    const single = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), alg: 'RS256' }] });
    const verifier = createTokenVerifier({ issuer, audience, keys: (...args) => (checks++, single(...args)) });
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject('u-1')
      .setExpirationTime('5m')
      .sign(privateKey);
    await verifier(token);
    await verifier(token);
    expect(checks).toBe(2);
  });

  it('keeps no refusal: a bad token is checked each time', async () => {
    const { verifier, checks } = counting();
    const token = await sign({}, { key: otherKey });
    await expect(verifier(token)).rejects.toMatchObject({ status: 401 });
    await expect(verifier(token)).rejects.toMatchObject({ status: 401 });
    expect(checks()).toBe(2);
  });
});
