import { z } from 'zod';
import { clientCredentialsToken, keycloakIdentityAdmin } from './keycloak.ts';
import type { IdentityAdmin } from './port.ts';

/**
 * An erased member's browser signs out of the identity provider right after their erasure, and the
 * provider's sign-out needs the session the removal would delete: the account goes this long after
 * the erasure (the forum refuses its tokens from the erasure on).
 */
const REALM_REMOVAL_GRACE_MS = 10_000;

/** Configuration of the identity-admin port with an external Keycloak (the embedded realm needs none). */
export const identityAdminSettings = {
  /**
   * Keycloak's admin API of the realm; default: OIDC_ISSUER's …/realms/<realm> as …/admin/realms/<realm>.
   * The client's token is asked of the same server: …/realms/<realm>/protocol/openid-connect/token.
   */
  IDENTITY_ADMIN_URL: z.string().url().optional(),
  /** A confidential client with the realm-management role manage-users (client-credentials grant). */
  IDENTITY_ADMIN_CLIENT_ID: z.string().min(1).optional(),
  IDENTITY_ADMIN_CLIENT_SECRET: z.string().min(1).optional(),
  /** How long after an erasure the identity provider's account is removed (the member's own sign-out goes first). */
  IDENTITY_REMOVAL_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(REALM_REMOVAL_GRACE_MS),
  /** The erasure list this process keeps (a file, on a disk apart from the database's): what `forumctl restore --erasures` reads. */
  ERASURE_LIST: z.string().min(1).optional(),
};

/** The external Keycloak's admin API, when its client is configured; null otherwise (erasures wait, and say so in the log). */
export function keycloakIdentityAdminFrom(config: {
  OIDC_ISSUER?: string;
  IDENTITY_ADMIN_URL?: string;
  IDENTITY_ADMIN_CLIENT_ID?: string;
  IDENTITY_ADMIN_CLIENT_SECRET?: string;
}): IdentityAdmin | null {
  const { OIDC_ISSUER: issuer, IDENTITY_ADMIN_CLIENT_ID: clientId, IDENTITY_ADMIN_CLIENT_SECRET: clientSecret } = config;
  if (!issuer || !clientId || !clientSecret) return null;
  const adminUrl = (config.IDENTITY_ADMIN_URL ?? issuer.replace(/\/realms\/([^/]+)\/?$/, '/admin/realms/$1')).replace(/\/+$/, '');
  // Keycloak serves a realm's admin API and its token endpoint side by side
  const realmAtAdmin = /^(.*)\/admin(\/realms\/[^/]+)$/.exec(adminUrl);
  const realmUrl = realmAtAdmin ? `${realmAtAdmin[1]}${realmAtAdmin[2]}` : issuer.replace(/\/+$/, '');
  return keycloakIdentityAdmin({
    adminUrl,
    token: clientCredentialsToken({ tokenUrl: `${realmUrl}/protocol/openid-connect/token`, clientId, clientSecret }),
  });
}
