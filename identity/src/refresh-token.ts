import type Provider from 'oidc-provider';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * oidc-provider's refresh tokens are opaque, but keycloak-js decodes the refresh
 * token as a JWT (and breaks on anything else). The opaque value therefore
 * travels inside a small HS256 JWT shaped like Keycloak's (`typ: Refresh`); the
 * provider sees only the opaque value again when the token comes back.
 */
export interface RefreshEnvelope {
  wrap(opaque: string, claims: RefreshClaims): string;
  /** The opaque value, or undefined when the envelope is not one of ours. */
  unwrap(value: unknown): string | undefined;
}

export interface RefreshClaims {
  iat: number;
  exp?: number;
  sub?: string;
  azp?: string;
  sid?: string;
  scope?: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function refreshEnvelope(key: string, issuer: string): RefreshEnvelope {
  const secret = Buffer.from(key, 'base64url');
  const sign = (input: string) => createHmac('sha256', secret).update(input).digest();

  return {
    wrap(opaque, claims) {
      const payload = {
        exp: claims.exp,
        iat: claims.iat,
        jti: opaque,
        iss: issuer,
        aud: issuer,
        sub: claims.sub,
        typ: 'Refresh',
        azp: claims.azp,
        sid: claims.sid,
        scope: claims.scope,
      };
      const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
      return `${body}.${sign(body).toString('base64url')}`;
    },

    unwrap(value) {
      if (typeof value !== 'string' || value.length > 8192) return undefined;
      const parts = value.split('.');
      if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
      const expected = sign(`${parts[0]}.${parts[1]}`);
      const given = Buffer.from(parts[2]!, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { jti?: unknown; typ?: unknown };
        return payload.typ === 'Refresh' && typeof payload.jti === 'string' ? payload.jti : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** Refresh tokens leave as JWT envelopes (keycloak-js decodes them) and come back unwrapped. */
export function sendRefreshTokensInEnvelopes(provider: Provider, envelope: RefreshEnvelope) {
  type Valued = { value: string; payload?: { iat?: number; exp?: number } };
  type Token = { accountId?: string; clientId?: string; sid?: string; scope?: string };
  type RefreshTokenStatics = {
    prototype: { getValueAndPayload: (this: Token) => Promise<Valued> };
    find: (this: RefreshTokenStatics, value: unknown, options?: unknown) => Promise<unknown>;
  };
  const RefreshToken = provider.RefreshToken as unknown as RefreshTokenStatics;
  const opaqueValue = RefreshToken.prototype.getValueAndPayload;
  RefreshToken.prototype.getValueAndPayload = async function (this: Token) {
    const result = await opaqueValue.call(this);
    const value = envelope.wrap(result.value, {
      iat: result.payload?.iat ?? Math.floor(Date.now() / 1000),
      exp: result.payload?.exp,
      sub: this.accountId,
      azp: this.clientId,
      sid: this.sid,
      scope: this.scope,
    });
    return { ...result, value };
  };
  const findOpaque = RefreshToken.find;
  RefreshToken.find = function (this: RefreshTokenStatics, value: unknown, findOptions?: unknown) {
    return findOpaque.call(this, envelope.unwrap(value), findOptions);
  };
}
