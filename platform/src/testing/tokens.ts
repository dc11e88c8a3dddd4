import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createTokenVerifier, type TokenVerifier } from '../auth.ts';

/** Who a test token speaks for: the claims the identity provider vouches for. */
export interface TokenSubject {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly photo?: string;
  /** The token's `email_verified` (false when not given). */
  readonly emailVerified?: boolean;
  /** The token's `handle` claim (the handle chosen in the realm; none when not given). */
  readonly handle?: string;
}

/** How a token departs from a good one, so that its refusal can be tested. */
export interface TokenFlaws {
  /** Seconds from now to its `exp` (5 minutes when not given; negative: expired). */
  readonly expiresIn?: number;
  readonly audience?: string;
  readonly issuer?: string;
  /** Signed by a key the verifier does not know (same `kid`). */
  readonly foreignKey?: boolean;
}

export interface TestIssuer {
  readonly issuer: string;
  readonly audience: string;
  /** The platform's real verifier, given this issuer's public key through its `keys` option. */
  readonly verifyToken: TokenVerifier;
  /** A signed access token for `subject`, shaped as the realm's (Keycloak's) are; `flaws` make it one to refuse. */
  sign(subject: TokenSubject, flaws?: TokenFlaws): Promise<string>;
}

const KID = 'test-key';

/** The key pairs, made once per process (ES256: quick to make). */
const keyPairs = (async () => {
  const [own, foreign] = await Promise.all([generateKeyPair('ES256'), generateKeyPair('ES256')]);
  const jwk: JWK = { ...(await exportJWK(own.publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
  return { signing: own.privateKey, foreign: foreign.privateKey, jwks: { keys: [jwk] } };
})();

/**
 * An identity provider for tests that need no realm: it signs access tokens with a key pair of
 * its own, and the tokens are verified by the platform's real `createTokenVerifier` (signature,
 * issuer, audience, expiry), so a test of a refusal meets the production check.
 */
export async function createTestIssuer(options: { issuer?: string; audience?: string } = {}): Promise<TestIssuer> {
  const issuer = options.issuer ?? 'http://localhost/realms/forum';
  const audience = options.audience ?? 'urn:forum:api';
  const keys = await keyPairs;
  const sign = (subject: TokenSubject, flaws: TokenFlaws = {}): Promise<string> =>
    new SignJWT({
      email: subject.email,
      email_verified: subject.emailVerified ?? false,
      name: subject.name,
      picture: subject.photo ?? '',
      preferred_username: subject.email,
      realm_access: { roles: ['user'] },
      ...(subject.handle !== undefined && { handle: subject.handle }),
    })
      .setProtectedHeader({ alg: 'ES256', kid: KID })
      .setIssuer(flaws.issuer ?? issuer)
      .setAudience(flaws.audience ?? audience)
      .setSubject(subject.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (flaws.expiresIn ?? 300))
      .sign(flaws.foreignKey ? keys.foreign : keys.signing);
  return { issuer, audience, verifyToken: createTokenVerifier({ issuer, audience, keys: createLocalJWKSet(keys.jwks) }), sign };
}
