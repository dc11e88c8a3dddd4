import { ANONYMOUS_NAME, type Role } from '@forum/contracts';
import { isVerifiedAdminEmail } from './config.ts';

/** What a member's token says of them, as their registration takes it (command-service's `Identity`, a token's `Principal`). */
export interface RegistrationClaims {
  readonly email: string;
  /** The issuer vouches that the member owns `email` (the token's email_verified). */
  readonly emailVerified: boolean;
  readonly name: string;
  readonly photoURL: string;
}

/** The member a registration records: their email, name and photo, and their role. */
export interface RegisteredAs {
  readonly email: string;
  readonly name: string;
  readonly photoURL: string;
  readonly role: Role;
}

/**
 * The one rule of what a member's first registration records from their token's claims: the email in
 * lower case, the name trimmed (Anonymous when none), the photo as given, and admin when the
 * token vouches for an address of ADMIN_EMAILS (`adminEmails`, normalised). The write side records
 * it (UserRegistered, AdminRoleGranted); the read side answers a verified member it has no record
 * of yet as this registration would make them.
 */
export function registeredAs(claims: RegistrationClaims, adminEmails: ReadonlySet<string>): RegisteredAs {
  const email = claims.email.toLowerCase();
  return {
    email,
    name: claims.name.trim() || ANONYMOUS_NAME,
    photoURL: claims.photoURL,
    role: isVerifiedAdminEmail(email, claims.emailVerified, adminEmails) ? 'admin' : 'user',
  };
}
