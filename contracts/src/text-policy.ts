import { z } from 'zod';
import { DECIMAL_INTEGER, EMAIL_MAX, PAGE_MAX, PHOTO_URL_MAX, USER_ID_MAX } from './constants.ts';
import { isEmail, normalizeEmail } from './email.ts';
import { checkText, type TextRule, type TextVerdict } from './text-rules.ts';

export * from './text-rules.ts';

/**
 * The text policy as zod schemas (requests' fields, query numbers, the photo URL), on the rules of
 * text-rules.ts. docs/security/text-policy.md has the table and the reasons.
 */

/** A zod schema of what `check` keeps, its message as the issue when it refuses. */
const checked = (check: (value: unknown) => TextVerdict) =>
  z.unknown().transform((value, ctx): string => {
    const verdict = check(value);
    if (verdict.ok) return verdict.value;
    ctx.addIssue({ code: 'custom', message: verdict.message });
    return z.NEVER;
  });

/**
 * A zod schema of a text field under `rule` (see checkText); `.optional()` for a field that may be
 * left out. Its JSON Schema (the API document's) says what the check takes: a string of at most `max`.
 */
export const text = (rule: TextRule) =>
  checked((value) => checkText(value, rule)).meta({
    type: 'string',
    ...(rule.required !== undefined && { minLength: 1 }),
    maxLength: rule.max,
    description: `${rule.label}: ${rule.kind === 'body' ? 'text' : 'one line'} of at most ${rule.max} characters, counted after normalisation (docs/security/text-policy.md)`,
  });

/** An email address's rule as text (emailText adds its form). */
export const emailRule = (label = 'Email', required = `${label} is required`): TextRule => ({ kind: 'line', label, max: EMAIL_MAX, required });

/**
 * An email address: one line of text, in the form the realm keeps it (normalizeEmail) and of the form
 * the realm accepts (isEmail), so every address an account can have is one the API takes.
 */
export function emailText(label = 'Email', { required, invalid = 'Not a valid email address' }: { required?: string; invalid?: string } = {}) {
  return text(emailRule(label, required)).transform(normalizeEmail).refine(isEmail, invalid);
}

/** An id in a path (a user's, a projection's): one run of visible characters. */
export function identifier(label: string, max = USER_ID_MAX) {
  const invalid = `Not ${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label}`;
  return text({ kind: 'line', label, max, required: invalid }).refine((value) => /^[^\s\p{C}]+$/u.test(value), invalid);
}

/**
 * A whole number in a query string, one rule for every one: decimal digits 0-9, a minus sign
 * allowed in front (a number below the least is then told so by its own check). `0x10`, `1e1`,
 * `+16`, ` 16`, `16.0`, `Infinity` and other scripts' digits are not numbers here; leading zeros
 * are decimal (`016` is 16). Sent twice (`?page=1&page=2`) it is a list, not a number.
 */
export const wholeNumber = (label: string) =>
  z.string(`${label} must be a number`).regex(DECIMAL_INTEGER, `${label} must be a whole number in digits 0-9`).transform(Number);

/** A page number of every paged call: 1 to PAGE_MAX. */
export const pageNumber = wholeNumber('Page').pipe(z.number().min(1, 'Page starts at 1').max(PAGE_MAX, `Page must be at most ${PAGE_MAX}`));

/**
 * The body of a call that takes none: nothing, or `{}` (what the spec's clients send). Anything
 * else is refused: a key by its name, as every command refuses a key that is not its field.
 */
export const NoBody = z.strictObject({}, 'This call takes no body').optional();

/**
 * A command's body (a `z.strictObject`) that the spec's own clients send with more beside its
 * fields, which the server takes from elsewhere (the token, its clock): those `keys` are accepted
 * and taken off before the fields are read; any other key is refused by name, as everywhere.
 */
export const droppingSpecFields = <S extends z.ZodType>(keys: readonly string[], body: S) =>
  z.preprocess((value) => (isPlainObject(value) ? Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key))) : value), body);

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ─── photo addresses ────────────────────────────────────────────────────────

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LOOPBACK_V6 = /^\[(::1|::|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/;

/** A host name that reaches this machine: localhost and its subdomains, 127.0.0.0/8, ::1, the unspecified addresses. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || LOOPBACK_V4.test(host) || host === '0.0.0.0' || LOOPBACK_V6.test(host);
}

const effectivePort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');

/** Whether `url` is the forum itself: its origin, or a loopback name of it at the same port. */
function isForumItself(url: URL, forum: URL): boolean {
  if (url.origin === forum.origin) return true;
  return isLoopbackHost(url.hostname) && isLoopbackHost(forum.hostname) && effectivePort(url) === effectivePort(forum);
}

/** What a photo address that is not an https:// one is told (a page, the API and the realm alike). */
export const PHOTO_URL_HTTPS_MESSAGE = 'Use an https:// address';

/**
 * What is wrong with `value` as a photo address of a forum served at `forumOrigin`, or null:
 * https only (the pages' CSP loads no other picture from elsewhere: an http:// photo would never
 * show), no user name or password in it, never the forum itself (each viewer's browser fetches it
 * with their cookies). Anything that does not start with https:// (words, a bare host, another
 * scheme) is told to be one first.
 */
export function photoUrlProblem(value: string, forumOrigin: string): string | null {
  if (!/^https:\/\//i.test(value)) return PHOTO_URL_HTTPS_MESSAGE;
  if (/[\s\p{C}]/u.test(value)) return 'Photo URL must not contain spaces or invisible characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Photo URL must be a web address (https://…)';
  }
  if (url.protocol !== 'https:') return PHOTO_URL_HTTPS_MESSAGE;
  if (url.username || url.password) return 'Photo URL must not contain a user name or password';
  if (isForumItself(url, new URL(forumOrigin))) return 'Photo URL must not point at the forum itself';
  if (url.href.length > PHOTO_URL_MAX) return `Photo URL must be at most ${PHOTO_URL_MAX} characters`;
  return null;
}

/** A photo address's rule as text (checkPhotoUrl adds what an address must be). */
export const PHOTO_URL_RULE: TextRule = { kind: 'line', label: 'Photo URL', max: PHOTO_URL_MAX };

/**
 * `value` as a photo address of a forum served at `forumOrigin` (see photoUrlProblem), kept in its
 * canonical form (`URL.href`); `''` (no photo) unless `required` gives the message refusing it.
 */
export function checkPhotoUrl(value: unknown, forumOrigin: string, { required }: { required?: string } = {}): TextVerdict {
  const verdict = checkText(value, { ...PHOTO_URL_RULE, ...(required && { required }) });
  if (!verdict.ok || verdict.value === '') return verdict;
  const problem = photoUrlProblem(verdict.value, forumOrigin);
  return problem === null ? { ok: true, value: new URL(verdict.value).href } : { ok: false, message: problem };
}

/** A zod schema of a photo address (see checkPhotoUrl); `''` when `allowEmpty` (no photo). */
export const photoUrl = (forumOrigin: string, { allowEmpty = false } = {}) =>
  checked((value) => checkPhotoUrl(value, forumOrigin, allowEmpty ? {} : { required: 'Photo URL is required' }));
