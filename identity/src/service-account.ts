import type { Principal } from '@forum/platform';
import type { ClientMetadata } from './oidc-provider.ts';
import type { ConfidentialClient } from './token-request.ts';

/**
 * The realm's service account, as Keycloak has one: a confidential client with the client-credentials
 * grant whose access token the admin API takes, carrying the roles of Keycloak's `realm-management`
 * client in `resource_access`. Its token is for the admin API only: its audience is the admin API's
 * URL (a resource indicator of its own), never the forum's API audience, and the client may ask for
 * no other, so the forum's services refuse it as they refuse any token for another audience.
 */

/** Keycloak's client whose roles open its admin API. */
const REALM_MANAGEMENT = 'realm-management';
/** What the admin API asks of a service account: GET of users (view-users or manage-users), every change (manage-users). */
const VIEW_USERS = 'view-users';
const MANAGE_USERS = 'manage-users';
/** The roles the service account holds: those the forum's identity-admin port needs (find accounts by email, remove one). */
const SERVICE_ACCOUNT_ROLES = [VIEW_USERS, MANAGE_USERS] as const;

/** The client in oidc-provider's terms: the client-credentials grant only, its secret in the form (as the forum's Keycloak adapter sends it). */
export function serviceAccountClient({ clientId, clientSecret }: ConfidentialClient): ClientMetadata {
  return {
    client_id: clientId,
    client_secret: clientSecret,
    client_name: 'Forum service account',
    token_endpoint_auth_method: 'client_secret_post',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  };
}

/** Claims of the service account's access token beside oidc-provider's own (its `sub` and `client_id` are the client's id). */
export const serviceAccountClaims = (clientId: string) => ({
  typ: 'Bearer',
  azp: clientId,
  preferred_username: `service-account-${clientId}`,
  resource_access: { [REALM_MANAGEMENT]: { roles: [...SERVICE_ACCOUNT_ROLES] } },
});

/** Whether a verified token of the admin API's audience may do `method`: Keycloak's realm-management roles. */
export function serviceAccountMay(principal: Principal, method: string): boolean {
  const roles = principal.clientRoles[REALM_MANAGEMENT] ?? [];
  if (roles.includes(MANAGE_USERS)) return true;
  return method === 'GET' && roles.includes(VIEW_USERS);
}
