import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier } from './auth.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const issuer = 'http://localhost:3000/realms/forum';
const audience = 'urn:forum:api';

/** The issuer's key set over real HTTP; `served` is what it answers now. */
let server: Server;
let jwksUrl: string;
let served: JWK[] = [];
let fetches = 0;
const signers = new Map<string, PrivateKey>();
const publicJwks = new Map<string, JWK>();

beforeAll(async () => {
  for (const kid of ['k1', 'k2']) {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    signers.set(kid, privateKey);
    publicJwks.set(kid, { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' });
  }
  server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.useRealTimers());

const serve = (...kids: string[]) => {
  served = kids.map((kid) => publicJwks.get(kid)!);
};

const sign = (kid: string, subject: string) =>
  new SignJWT({ email: `${subject}@forum.local` })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + 3600)
    .sign(signers.get(kid)!);

describe('createTokenVerifier against a remote key set that rotates', () => {
  it('refuses a kept token once the re-fetched key set no longer holds the key that signed it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    serve('k1');
    fetches = 0;
    const verify = createTokenVerifier({ issuer, audience, jwksUrl });
    const old = await sign('k1', 'u-old');
    await verify(old);
    await verify(old);
    expect(fetches).toBe(1);

    // The issuer rotates: k1 is revoked, k2 signs from now on. A token with the new key makes the
    // verifier fetch the set again (once the key set's cooldown has passed).
    serve('k2');
    vi.setSystemTime(Date.now() + 31_000);
    expect(await verify(await sign('k2', 'u-new'))).toMatchObject({ subject: 'u-new' });
    expect(fetches).toBe(2);

    await expect(verify(old)).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'The token is not valid' });
  });

  it('keeps answering tokens whose key is still in the re-fetched set, from memory', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    serve('k1');
    fetches = 0;
    // The remote set behind a wrapper that counts the keys it hands out: one per signature check.
    const remote = createRemoteJWKSet(new URL(jwksUrl));
    let checks = 0;
    const keys = Object.defineProperties((...args: Parameters<typeof remote>) => (checks++, remote(...args)), {
      jwks: { value: () => remote.jwks() },
      fresh: { get: () => remote.fresh },
    });
    const verify = createTokenVerifier({ issuer, audience, keys });
    const token = await sign('k1', 'u-1');
    await verify(token);
    serve('k1', 'k2');
    vi.setSystemTime(Date.now() + 31_000);
    await verify(await sign('k2', 'u-2'));
    expect(fetches).toBe(2);
    expect(await verify(token)).toMatchObject({ subject: 'u-1' });
    expect(checks).toBe(2);
  });

  it('checks a kept token again once the key set is older than its most age, which fetches the set again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    serve('k1');
    fetches = 0;
    const verify = createTokenVerifier({ issuer, audience, jwksUrl, verifiedMaxAgeMs: 60 * 60_000 });
    const token = await sign('k1', 'u-1');
    await verify(token);
    serve('k2');
    vi.setSystemTime(Date.now() + 11 * 60_000);
    await expect(verify(token)).rejects.toMatchObject({ status: 401, message: 'The token is not valid' });
    expect(fetches).toBe(2);
  });
});
