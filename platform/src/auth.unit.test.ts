import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, type TokenVerifier } from './auth.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const issuer = 'http://localhost:3000/realms/forum';
const audience = 'urn:forum:api';
let verify: TokenVerifier;
let sign: (claims: Record<string, unknown>, options?: { exp?: number; alg?: string; key?: PrivateKey }) => Promise<string>;
let otherKey: PrivateKey;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  verify = createTokenVerifier({ issuer, audience, keys: createLocalJWKSet({ keys: [jwk] }) });
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
    expect(await verify(await sign({}))).toEqual({ subject: 'u-1', email: 'alice@forum.local', name: 'Alice', picture: '', username: '', roles: ['user', 'admin'] });
  });

  it.each([
    ['an expired token', () => sign({}, { exp: Math.floor(Date.now() / 1000) - 60 }), 'The token has expired'],
    ['a token for another audience', () => sign({ aud: 'account' }), 'The token is not valid'],
    ['a token of another issuer', () => sign({ iss: 'http://evil.test/realms/forum' }), 'The token is not valid'],
    ['a token signed by another key', () => sign({}, { key: otherKey }), 'The token is not valid'],
    ['a tampered token', async () => {
      const [h, p, s] = (await sign({})).split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      return `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'u-2' })).toString('base64url')}.${s}`;
    }, 'The token is not valid'],
    ['an unsigned token (alg none)', async () => {
      const [, p] = (await sign({})).split('.');
      return `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    }, 'The token is not valid'],
    ['garbage', async () => 'not.a.jwt', 'The token is not valid'],
  ])('refuses %s with 401 UNAUTHENTICATED', async (_name, token, message) => {
    await expect(verify(await token())).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message });
  });
});
