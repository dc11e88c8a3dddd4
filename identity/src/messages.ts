/** The texts the realm's flows answer with. */

/**
 * The spec's success message of a reset request (§8): the one answer to every well-formed request,
 * whether or not an account has that email (the mail goes out afterwards, only to an account).
 */
export const RESET_SENT_MESSAGE = 'A password reset email is sent. Please check your email.';
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists.';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';
export const DISABLED_MESSAGE = 'Account is disabled, contact your administrator.';
export const UNVERIFIED_GOOGLE_MESSAGE =
  'The email address of your Google account is not verified, so it cannot be used to sign in here. Verify it with Google, or sign in with your email and password.';
export const GOOGLE_UNCONFIGURED = 'Google sign-in is not configured on this server.';
export const MALFORMED_HOST_MESSAGE = 'The Host header is not a valid host.';
export const BODY_TOO_LARGE_MESSAGE = 'The request body is too large.';
