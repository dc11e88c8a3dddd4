import type { FastifyRequest } from 'fastify';
import { normalizeEmail } from '@forum/contracts';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError } from './errors.ts';

/** Who is calling, as the identity provider vouches for it. */
export interface Principal {
  /** The token's subject: the user's stable id at the issuer. */
  readonly subject: string;
  readonly email: string;
  /** The token's `email_verified`: the issuer vouches that the caller owns `email` (absent or anything but true: no). */
  readonly emailVerified: boolean;
  readonly name: string;
  readonly picture: string;
  readonly username: string;
  /** The token's `handle` claim: the handle the member chose in the realm ('' when none; the forum checks it before taking it). */
  readonly handle: string;
  /** Realm roles from `realm_access.roles` (Keycloak's layout). */
  readonly roles: readonly string[];
  /** Client roles from `resource_access.<client>.roles` (Keycloak's layout), e.g. a service account's `realm-management` roles. */
  readonly clientRoles: Readonly<Record<string, readonly string[]>>;
}

/**
 * Where the verifier finds the issuer's keys. jose's remote and local key sets also tell which keys
 * they hold now (`jwks`) and whether the remote one is due to be fetched again (`fresh`): kept
 * tokens are answered only while both say the key that verified them still counts.
 */
export type VerificationKeys = JWTVerifyGetKey & {
  readonly jwks?: () => JSONWebKeySet | undefined;
  readonly fresh?: boolean;
};

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Defaults to Keycloak's layout: `{issuer}/protocol/openid-connect/certs`. */
  jwksUrl?: string;
  /** Local key set, for tests that sign their own tokens. */
  keys?: VerificationKeys;
  /** The most a verified token is answered from memory before it is checked again (VERIFIED_MAX_AGE_MS). */
  verifiedMaxAgeMs?: number;
  /** How many verified tokens are kept (VERIFIED_KEPT). */
  verifiedKept?: number;
}

/**
 * A verified token is answered from memory until it expires, and for at most this long: a client
 * sends the same token with each call for minutes, and checking its signature is a good part of a
 * command's work.
 */
export const VERIFIED_MAX_AGE_MS = 60_000;
/** How many verified tokens are kept (the least recently used go first). */
export const VERIFIED_KEPT = 5_000;
/** How long the issuer's key set is used before it is fetched again, and the least time between two fetches. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
const JWKS_COOLDOWN_MS = 30_000;

export type TokenVerifier = (token: string) => Promise<Principal>;

const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

interface Kept {
  readonly principal: Principal;
  /** Epoch ms: the token's `exp`, or the most it is kept, whichever comes first. */
  readonly until: number;
  /** The `kid` of the key that verified the token. */
  readonly kid: string;
}

/** The key ids the set holds now; null when the set does not say. */
function keyIdsOf(keys: VerificationKeys): ReadonlySet<string> | null {
  const set = keys.jwks?.();
  return set ? new Set(set.keys.flatMap((key) => (key.kid === undefined ? [] : [key.kid]))) : null;
}

/**
 * Verifies OIDC access tokens (JWT) against the issuer's JWKS: signature,
 * algorithm, issuer, audience, expiry and not-before. A token verified lately is
 * answered from memory (see VERIFIED_MAX_AGE_MS) until its `exp`, and only while
 * the key set, as last fetched, still holds the key that verified it and is not
 * due to be fetched again; a refusal is never kept, nor a token without a `kid`.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const keys: VerificationKeys =
    options.keys ??
    createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer.replace(/\/$/, '')}/protocol/openid-connect/certs`), {
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
    });
  // The set changes only while it hands out a key (jose fetches it again then), so its key ids
  // are read after each of those, not on every answer from memory.
  let keyIds = keyIdsOf(keys);
  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await keys(header, token);
    } finally {
      keyIds = keyIdsOf(keys);
    }
  };
  const maxAgeMs = options.verifiedMaxAgeMs ?? VERIFIED_MAX_AGE_MS;
  const verified = new LRUCache<string, Kept>({ max: options.verifiedKept ?? VERIFIED_KEPT });
  const stillGood = (kept: Kept) => Date.now() < kept.until && keys.fresh !== false && (keyIds === null || keyIds.has(kept.kid));
  return async (token) => {
    const kept = verified.get(token);
    if (kept && stillGood(kept)) return kept.principal;
    if (kept) verified.delete(token);
    try {
      const { payload, protectedHeader } = await jwtVerify(token, getKey, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: 5,
        requiredClaims: ['sub', 'exp'],
      });
      const str = (value: unknown) => (typeof value === 'string' ? value : '');
      const realmAccess = payload.realm_access as { roles?: unknown } | undefined;
      const roles = Array.isArray(realmAccess?.roles) ? realmAccess.roles.filter((r): r is string => typeof r === 'string') : [];
      const resourceAccess =
        payload.resource_access && typeof payload.resource_access === 'object' ? (payload.resource_access as Record<string, { roles?: unknown } | null>) : {};
      // fromEntries defines own properties: a client named __proto__ is only a name
      const clientRoles = Object.fromEntries(
        Object.entries(resourceAccess).flatMap(([client, access]) =>
          Array.isArray(access?.roles) ? [[client, Object.freeze(access.roles.filter((r): r is string => typeof r === 'string'))]] : [],
        ),
      );
      const principal: Principal = Object.freeze({
        subject: payload.sub!,
        email: normalizeEmail(str(payload.email)),
        emailVerified: payload.email_verified === true,
        name: str(payload.name),
        picture: str(payload.picture),
        username: str(payload.preferred_username),
        handle: str(payload.handle),
        roles: Object.freeze(roles),
        clientRoles: Object.freeze(clientRoles),
      });
      if (protectedHeader.kid !== undefined) {
        verified.set(token, { principal, until: Math.min(payload.exp! * 1000, Date.now() + maxAgeMs), kid: protectedHeader.kid });
      }
      return principal;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) {
        const reason = error instanceof joseErrors.JWTExpired ? 'The token has expired' : 'The token is not valid';
        throw new UnauthenticatedError(reason);
      }
      throw error;
    }
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling (see authenticate); undefined for anonymous callers. */
    principal?: Principal;
  }
}

/** The token of an Authorization header; null without one, 401 for any other scheme or shape. */
function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>"');
  return match[1]!;
}

/**
 * Fastify's preHandler hook: the caller's token verified, the principal in `request.principal`.
 * `required`: no token is 401; otherwise anonymous callers pass. A bad token is 401 either way.
 */
export function authenticate(verify: TokenVerifier, options: { readonly required: boolean }): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const token = bearerOf(request.headers.authorization);
    if (token) request.principal = await verify(token);
    else if (options.required) throw new UnauthenticatedError();
  };
}

/** The principal authenticate found; 401 when the caller is anonymous. */
export function principalOfRequest(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthenticatedError();
  return request.principal;
}
