/**
 * The identity provider's side of an erasure: its account goes too (docs/security/erasure.md).
 * The embedded realm removes it in process; an external Keycloak through its admin REST API.
 */
export interface IdentityAdmin {
  /** Removes the account `id` (the token's subject). An account that is not there counts as removed. */
  removeAccount(id: string): Promise<void>;
}
