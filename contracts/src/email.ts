import { EMAIL_DOMAIN_LABEL_MAX, EMAIL_LOCAL_PART_MAX, EMAIL_MAX } from './constants.ts';

/**
 * One mailbox, one spelling: the form in which an email address is stored, compared and
 * counted (account uniqueness, sign-in, password reset, ADMIN_EMAILS, throttling keys).
 * - surrounding white space goes;
 * - Unicode NFC, so a precomposed and a decomposed "é" are one address;
 * - lower case, the whole address (as Keycloak and most providers treat it);
 * - the domain's trailing dot goes: `forum.local.` is the fully qualified spelling of `forum.local`.
 * Provider-specific aliases (Gmail's dots and `+tags`) are left alone: they are other addresses elsewhere.
 */
export function normalizeEmail(email: string): string {
  const address = email.normalize('NFC').trim().toLowerCase().normalize('NFC');
  return address.endsWith('.') && address.includes('@') ? address.slice(0, -1) : address;
}

/** White space, control and format characters (zero-width, bidi controls): never part of an address. */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Z}]/u;
/** Half of a surrogate pair without its other half (not text: it cannot be encoded). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A normalised address the realm accepts, and the only test of one (registration, the realm's admin
 * API, the Contact page and the API's email fields all ask it): one `@`, a local part of 1–64
 * characters, a domain of at least two dot-separated labels of 1–63 characters (no empty label, so
 * no second trailing dot) whose last is not all digits (RFC 3696 §2: `a@b`, `ann@localhost` and
 * `ann@127.0.0.1` reach no mailbox on the internet), nothing invisible, no lone surrogate, at most
 * EMAIL_MAX characters.
 */
export function isEmail(email: string): boolean {
  if (email.length > EMAIL_MAX || LONE_SURROGATE.test(email) || INVISIBLE.test(email)) return false;
  const at = email.indexOf('@');
  if (at < 1 || at !== email.lastIndexOf('@') || at > EMAIL_LOCAL_PART_MAX) return false;
  const labels = email.slice(at + 1).split('.');
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1)!)) return false;
  return labels.every((label) => label.length >= 1 && label.length <= EMAIL_DOMAIN_LABEL_MAX);
}
