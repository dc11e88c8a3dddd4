import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { createTokenVerifier } from '@forum/platform';
import type { RealmSecrets } from './store.ts';

function publicJwk(jwk: JsonWebKey): JWK {
  const { kty, n, e, kid, alg, use } = jwk as JsonWebKey & { kid?: string; alg?: string; use?: string };
  return { kty, n, e, kid, alg, use };
}

/** The realm's own check of its access tokens (userinfo, the admin API): the same rules the services use. */
export function createAccessTokenVerifier(signingKeys: RealmSecrets['signingKeys'], issuer: string, audience: string) {
  const publicKeys = new Map<string, KeyObject>();
  for (const jwk of signingKeys) {
    publicKeys.set(String((jwk as { kid?: string }).kid), createPublicKey({ key: publicJwk(jwk) as JsonWebKey, format: 'jwk' }));
  }
  const verifyAccessToken = createTokenVerifier({
    issuer,
    audience,
    keys: (header) => {
      const key = header.kid ? publicKeys.get(header.kid) : undefined;
      if (!key) throw new Error('unknown signing key');
      return key;
    },
  });
  return verifyAccessToken;
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
