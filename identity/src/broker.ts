import { createHash } from 'node:crypto';
import { normalizeEmail } from '@forum/contracts';
import type { Knex, Logger } from '@forum/platform';
import * as oidc from 'openid-client';
import { SCHEMA } from './store.ts';

/**
 * Identity brokering (Keycloak's "identity providers"): sign-in at an upstream
 * OpenID provider — Google — with the authorization code flow, PKCE, state and
 * nonce; the callback is `{issuer}/broker/google/endpoint` like Keycloak's.
 */
export interface GoogleOptions {
  clientId: string;
  clientSecret: string;
  /** default https://accounts.google.com; any OpenID provider with discovery works (tests use a local one) */
  issuer?: string;
}

export const GOOGLE = 'google';
const STATE_TTL_SECONDS = 10 * 60;
const SCOPE = 'openid email profile';

/** Who the upstream provider says signed in. */
export interface UpstreamIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  picture: string;
}

/** A failure to show the user (message) rather than a server error. */
export class BrokerError extends Error {
  constructor(
    message: string,
    readonly reason: 'cancelled' | 'failed' | 'expired',
  ) {
    super(message);
  }
}

const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export function createGoogleBroker(options: GoogleOptions, realmIssuer: string, db: Knex, log: Logger) {
  const upstream = new URL(options.issuer ?? 'https://accounts.google.com');
  const redirectUri = `${realmIssuer}/broker/${GOOGLE}/endpoint`;
  let discovered: Promise<oidc.Configuration> | undefined;

  /** Discovery once, on first use; a failed one is tried again next time. */
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(upstream, options.clientId, { client_secret: options.clientSecret }, oidc.ClientSecretPost(options.clientSecret), {
        // plain http only for a local stand-in provider (development, tests)
        execute: upstream.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  }

  return {
    redirectUri,

    /** Where to send the browser: the upstream authorization URL for this pending sign-in. */
    async start(interactionUid: string, loginHint?: string): Promise<string> {
      const config = await configuration();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      await db.raw(
        `INSERT INTO ${SCHEMA}.broker_states (state_hash, provider, interaction_uid, code_verifier, nonce, expires_at)
         VALUES (?, ?, ?, ?, ?, now() + make_interval(secs => ?))`,
        [hashOf(state), GOOGLE, interactionUid, verifier, nonce, STATE_TTL_SECONDS],
      );
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return url.href;
    },

    /** The pending sign-in a callback belongs to (its state is used up here), or null when unknown or expired. */
    async claimState(state: string | null): Promise<{ interactionUid: string; verifier: string; nonce: string; state: string } | null> {
      if (!state || state.length > 512) return null;
      const result = await db.raw<{ rows: { interaction_uid: string; code_verifier: string; nonce: string; live: boolean }[] }>(
        `DELETE FROM ${SCHEMA}.broker_states WHERE state_hash = ? AND provider = ? RETURNING interaction_uid, code_verifier, nonce, expires_at > now() AS live`,
        [hashOf(state), GOOGLE],
      );
      const row = result.rows[0];
      return row?.live ? { interactionUid: row.interaction_uid, verifier: row.code_verifier, nonce: row.nonce, state } : null;
    },

    /** Exchanges the code of the callback (`query`) and returns who signed in. */
    async finish(query: URLSearchParams, claimed: { verifier: string; nonce: string; state: string }): Promise<UpstreamIdentity> {
      const error = query.get('error');
      if (error) {
        log.info({ provider: GOOGLE, error }, 'upstream sign-in not completed');
        throw error === 'access_denied'
          ? new BrokerError('Google sign-in was cancelled.', 'cancelled')
          : new BrokerError('Google sign-in failed. Please try again.', 'failed');
      }
      let identity: UpstreamIdentity;
      try {
        const config = await configuration();
        const current = new URL(redirectUri);
        current.search = query.toString();
        const tokens = await oidc.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: claimed.verifier,
          expectedState: claimed.state,
          expectedNonce: claimed.nonce,
          idTokenExpected: true,
        });
        let claims: Record<string, unknown> = { ...tokens.claims() };
        if (!str(claims.email)) {
          // providers that keep profile claims out of the ID token: ask userinfo
          claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
        }
        identity = {
          subject: str(claims.sub),
          email: normalizeEmail(str(claims.email)),
          emailVerified: claims.email_verified === true || claims.email_verified === 'true',
          name: str(claims.name) || [str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' '),
          picture: str(claims.picture),
        };
      } catch (err) {
        log.warn({ err, provider: GOOGLE }, 'upstream sign-in failed');
        throw new BrokerError('Google sign-in failed. Please try again.', 'failed');
      }
      if (!identity.subject || !identity.email) throw new BrokerError('Google did not tell us your email address, so we cannot sign you in.', 'failed');
      return identity;
    },
  };
}

export type GoogleBroker = ReturnType<typeof createGoogleBroker>;

export async function deleteExpiredBrokerStates(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${SCHEMA}.broker_states WHERE expires_at < now()`);
}
