import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { normalizeEmail } from '@forum/contracts';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
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
  /** Realm roles from `realm_access.roles` (Keycloak's layout). */
  readonly roles: readonly string[];
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Defaults to Keycloak's layout: `{issuer}/protocol/openid-connect/certs`. */
  jwksUrl?: string;
  /** Local key set, for tests that sign their own tokens. */
  keys?: JWTVerifyGetKey;
  /** The most a verified token is answered from memory before it is checked again (VERIFIED_MAX_AGE_MS). */
  verifiedMaxAgeMs?: number;
}

/**
 * A verified token is answered from memory until it expires, and for at most this long: a client
 * sends the same token with each call for minutes, and checking its signature is a good part of a
 * command's work. A key taken out of the issuer's key set stops being trusted at most this late.
 */
export const VERIFIED_MAX_AGE_MS = 60_000;
/** How many verified tokens are kept (the least recently used go first). */
const VERIFIED_KEPT = 5_000;

export type TokenVerifier = (token: string) => Promise<Principal>;

const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

/**
 * Verifies OIDC access tokens (JWT) against the issuer's JWKS: signature,
 * algorithm, issuer, audience, expiry and not-before. A token verified lately is
 * answered from memory until its expiry (see VERIFIED_MAX_AGE_MS); a refusal is never kept.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const keys =
    options.keys ??
    createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer.replace(/\/$/, '')}/protocol/openid-connect/certs`), {
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
  const maxAgeMs = options.verifiedMaxAgeMs ?? VERIFIED_MAX_AGE_MS;
  const verified = new LRUCache<string, { principal: Principal; until: number }>({ max: VERIFIED_KEPT });
  return async (token) => {
    const kept = verified.get(token);
    if (kept && Date.now() < kept.until) return kept.principal;
    if (kept) verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: 5,
        requiredClaims: ['sub', 'exp'],
      });
      const str = (value: unknown) => (typeof value === 'string' ? value : '');
      const realmAccess = payload.realm_access as { roles?: unknown } | undefined;
      const roles = Array.isArray(realmAccess?.roles) ? realmAccess.roles.filter((r): r is string => typeof r === 'string') : [];
      const principal: Principal = Object.freeze({
        subject: payload.sub!,
        email: normalizeEmail(str(payload.email)),
        emailVerified: payload.email_verified === true,
        name: str(payload.name),
        picture: str(payload.picture),
        username: str(payload.preferred_username),
        roles: Object.freeze(roles),
      });
      verified.set(token, { principal, until: Math.min(payload.exp! * 1000, Date.now() + maxAgeMs) });
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

declare global {
  namespace Express {
    interface Locals {
      principal?: Principal;
    }
  }
}

function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>"');
  return match[1]!;
}

/** Requires a valid token; the principal lands in `res.locals.principal`. */
export function requireAuth(verify: TokenVerifier): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = bearerOf(req);
    if (!token) throw new UnauthenticatedError();
    res.locals.principal = await verify(token);
    next();
  };
}

/** Uses a token when one is sent (a bad one is still a 401), and lets anonymous callers through. */
export function optionalAuth(verify: TokenVerifier): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = bearerOf(req);
    if (token) res.locals.principal = await verify(token);
    next();
  };
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal;
  if (!principal) throw new UnauthenticatedError();
  return principal;
}
