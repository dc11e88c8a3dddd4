/**
 * The identity provider's accounts, as the write side needs them: which account an email names
 * (calls addressed by email), an erased member's account going too (docs/security/erasure.md), and
 * the copies of a member's handle and moderator role the provider keeps for its tokens
 * (docs/notifications.md#handles, docs/keycloak.md), and whether it vouches for a member's address
 * (the notifications' mailer mails only those: docs/notifications.md#email).
 * The embedded realm answers in process; an external Keycloak through its admin REST API.
 */
export interface IdentityAdmin {
  /** The ids (the tokens' subjects) of the accounts whose email is `email` (normalised), as the provider's exact search finds them. */
  accountsByEmail(email: string): Promise<string[]>;
  /** Removes the account `id` (the token's subject). An account that is not there counts as removed. */
  removeAccount(id: string): Promise<void>;
  /** Writes the account's attribute `handle` (the forum decides handles; the provider keeps a copy). */
  setHandle(id: string, handle: string): Promise<void>;
  /** Gives the account the realm role `moderator`, or takes it (the forum decides roles; the provider keeps a copy). An account that is not there is left so. */
  setModerator(id: string, moderator: boolean): Promise<void>;
  /** Whether the account `id` has its address verified; an account that is not there has not. */
  emailVerified(id: string): Promise<boolean>;
}
