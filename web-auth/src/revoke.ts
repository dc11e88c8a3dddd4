/** What the realm's revocation endpoint needs to know about the app: where the realm is and who the app is. */
export interface RevokeTarget {
  /** The identity server, as keycloak-js takes it: the realm lives at `${url}/realms/${realm}`. */
  readonly url: string;
  readonly realm: string;
  /** A public client names itself (RFC 7009 §2.1, as Keycloak asks). */
  readonly clientId: string;
}

/** How long sign-out waits for the realm's answer before it goes on to end the session anyway. */
export const REVOKE_WAIT_MS = 3000;

/** Keycloak's revocation endpoint of the realm (keycloak-js has none). */
export function revocationEndpoint({ url, realm }: Pick<RevokeTarget, 'url' | 'realm'>): string {
  return `${url.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}/protocol/openid-connect/revoke`;
}

/**
 * Revokes the app's refresh token at the realm (RFC 7009), which keycloak-js's logout does not do:
 * it only sends the browser to end the session. Best effort: an error, a refusal or a realm slower
 * than `waitMs` never keeps anyone signed in; the request is `keepalive`, so it still reaches the
 * realm if the page leaves first.
 */
export async function revokeRefreshToken(target: RevokeTarget, refreshToken: string | undefined, waitMs = REVOKE_WAIT_MS): Promise<void> {
  if (!refreshToken) return;
  try {
    await fetch(revocationEndpoint(target), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: target.clientId, token: refreshToken, token_type_hint: 'refresh_token' }),
      credentials: 'omit',
      keepalive: true,
      signal: AbortSignal.timeout(waitMs),
    });
  } catch {
    // unreachable, refused or slow: the session still ends at the realm, which revokes the tokens of its sign-ins too
  }
}
