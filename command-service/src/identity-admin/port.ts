/**
 * The identity provider's accounts, as the write side needs them: which account an email names
 * (calls addressed by email), and an erased member's account going too (docs/security/erasure.md).
 * The embedded realm answers in process; an external Keycloak through its admin REST API.
 */
export interface IdentityAdmin {
  /** The ids (the tokens' subjects) of the accounts whose email is `email` (normalised), as the provider's exact search finds them. */
  accountsByEmail(email: string): Promise<string[]>;
  /** Removes the account `id` (the token's subject). An account that is not there counts as removed. */
  removeAccount(id: string): Promise<void>;
}
