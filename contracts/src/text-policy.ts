import { z } from 'zod';
import { DECIMAL_INTEGER, EMAIL_MAX, PAGE_MAX, PHOTO_URL_MAX, USER_ID_MAX } from './constants.ts';
import { isEmail, normalizeEmail } from './email.ts';

/**
 * The one policy for every string a user sends: request bodies, query and path parameters, the
 * realm's register form. docs/security/text-policy.md has the table and the reasons.
 *
 * Order: a single string → no lone surrogates → line breaks as LF (multi-line texts) → no control
 * characters → NFC → trimmed → not empty / not only invisible characters → the kind's own rules →
 * at most `max` code points. Bad text is refused, never repaired behind the sender's back, except
 * for the lossless normalisations (CRLF → LF, NFC, trimming, runs of spaces in names).
 */

/**
 * - `body`: multi-line text (a description, a comment, a message): tab and line feed allowed.
 * - `line`: one line of free text (a search, a contact name).
 * - `title`: one line shown as a heading: no text direction controls either.
 * - `name`: who or what something is (a display name, a tag): no direction controls, no invisible
 *   characters except inside an emoji sequence or a joining script's word, spaces in runs as one.
 */
export type TextKind = 'body' | 'line' | 'title' | 'name';

export interface TextRule {
  readonly kind: TextKind;
  /** The field as the messages name it ('Title'). */
  readonly label: string;
  /** The most it may hold, in Unicode code points after normalisation (what the web apps' counters count). */
  readonly max: number;
  /** The message when the value is missing or empty; without it an empty value ('') is accepted. */
  readonly required?: string;
}

export type TextVerdict = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string };

/** C0 and C1 controls and DEL (the category Cc); multi-line texts keep tab and line feed. */
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_TAB_AND_LF = new RegExp('[\\p{Cc}--[\\t\\n]]', 'v');
/** Embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): they reorder the text around them. */
const DIRECTION_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
/**
 * A character that renders as something: not white space, a format character (zero-width space,
 * joiners, marks of direction…), a default-ignorable code point (Hangul fillers, variation
 * selectors, tags…), the blank Braille pattern, or a mark (which needs a character to sit on).
 */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\p{M}]/u;
/** Invisible inside a name: default-ignorable and format characters, the blank Braille pattern. */
const INVISIBLE_IN_NAME = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
/** A recommended (RGI) emoji, sequences with zero-width joiners, variation selectors and tags included. */
const EMOJI = new RegExp('\\p{RGI_Emoji}', 'gv');
/**
 * Scripts whose words need ZWNJ / ZWJ (Persian's ZWNJ, the Indic scripts' half forms after a
 * virama): there a joiner between two of the script's letters or marks is part of the word
 * (after RFC 5892's CONTEXTJ rules, without their per-character tables).
 */
const JOINING_SCRIPTS = [
  'Arabic',
  'Syriac',
  'Nko',
  'Mongolian',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Myanmar',
  'Khmer',
];
const WORD_JOINERS = new RegExp(
  JOINING_SCRIPTS.map(
    (script) => `(?<=[\\p{Script_Extensions=${script}}&&[\\p{L}\\p{M}]])[\\u200c\\u200d](?=[\\p{Script_Extensions=${script}}&&[\\p{L}\\p{M}]])`,
  ).join('|'),
  'gv',
);

const hex = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * `text` cut after `length` characters and followed by '...' when it is longer (the comments
 * table's preview, a warning's quote of its comment). Characters, not UTF-16 units, so an emoji
 * is never split.
 */
export function cutText(text: string, length: number): { preview: string; cut: boolean } {
  const characters = Array.from(text);
  if (characters.length <= length) return { preview: text, cut: false };
  return { preview: `${characters.slice(0, length).join('')}...`, cut: true };
}

/** Unicode code points in `value` (a pair of surrogates is one). A loop over UTF-16 units: several times faster than iterating the string. */
export function codePoints(value: string): number {
  let pairs = 0;
  for (let i = 0; i < value.length - 1; i++) {
    if (isHigh(value.charCodeAt(i)) && isLow(value.charCodeAt(i + 1))) {
      pairs += 1;
      i += 1;
    }
  }
  return value.length - pairs;
}

/** The first surrogate in `value` that is not half of a pair, or null. */
function loneSurrogate(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (isHigh(unit) && isLow(value.charCodeAt(i + 1))) i += 1;
    else if (isHigh(unit) || isLow(unit)) return value[i]!;
  }
  return null;
}

/** Line breaks as LF, in a multi-line text (a line has none to keep). */
const lineFeeds = (value: string, kind: TextKind) => (kind === 'body' ? value.replace(/\r\n?/g, '\n') : value);

/** The text (its line breaks LF already, see lineFeeds) as the policy keeps it: NFC, trimmed, spaces in names as one. */
function normalized(lf: string, kind: TextKind): string {
  const text = lf.normalize('NFC').trim();
  return kind === 'name' ? text.replace(/\s+/gu, ' ') : text;
}

/** How long `value` is as the policy counts it (code points of its normalised form): the web apps' counters. */
export function textLength(value: string, kind: TextKind = 'line'): number {
  return codePoints(normalized(lineFeeds(value, kind), kind));
}

/** A count as the counters write it: 19,990 characters. */
const number = (n: number) => n.toLocaleString('en-US');
const characters = (n: number) => `${number(n)} character${n === 1 ? '' : 's'}`;

/**
 * What a field's counter says of `value` under `max` (counted as the API counts): `text` to show
 * (in the field's description), `over` for its error state, and `announcement` for a polite live
 * region: it changes only when the value comes within a tenth of the limit, reaches it, or goes
 * over, so a screen reader is told then and not at every key.
 */
export function characterCount(value: string, max: number, kind: TextKind = 'line') {
  const count = textLength(value, kind);
  const left = max - count;
  const near = Math.max(1, Math.ceil(max / 10));
  const text = left >= 0 ? `${characters(left)} left (${number(count)} of ${number(max)})` : `${characters(-left)} too many (the most is ${number(max)})`;
  const announcement =
    left < 0
      ? `Too many characters: the most is ${number(max)}`
      : left === 0
        ? `Limit reached: ${characters(max)}`
        : left <= near
          ? `${characters(near)} or fewer left`
          : '';
  return { count, left, over: left < 0, text, announcement };
}

/** `value` checked by `rule`: the text to keep, or the message that refuses it. */
export function checkText(value: unknown, rule: TextRule): TextVerdict {
  const { kind, label, max } = rule;
  const refuse = (message: string): TextVerdict => ({ ok: false, message });
  if (Array.isArray(value)) return refuse(`${label} must be sent once`);
  if (value === undefined || value === null) return refuse(rule.required ?? `${label} must be text`);
  if (typeof value !== 'string') return refuse(`${label} must be text`);
  const tooLong = `${label} must be at most ${max} characters`;
  // more UTF-16 units than any text within the limit can have after normalisation: refused before any work
  if (value.length > 8 * max + 1024) return refuse(tooLong);
  const lone = loneSurrogate(value);
  if (lone !== null) return refuse(`${label} contains a broken character (a lone UTF-16 surrogate, ${hex(lone)})`);
  const body = kind === 'body';
  const lf = lineFeeds(value, kind);
  const control = lf.match(body ? CONTROL_BUT_TAB_AND_LF : CONTROL);
  if (control) return refuse(`${label} must not contain control characters${body ? ' other than tab and line break' : ''} (${hex(control[0])})`);
  const text = normalized(lf, kind);
  if (text === '') return rule.required ? refuse(rule.required) : { ok: true, value: '' };
  if (!VISIBLE.test(text)) return refuse(`${label} must contain visible characters, not only invisible ones`);
  if (kind === 'title' || kind === 'name') {
    const direction = text.match(DIRECTION_CONTROL);
    if (direction) return refuse(`${label} must not contain text direction controls (${hex(direction[0])})`);
  }
  if (kind === 'name') {
    const invisible = text.replace(EMOJI, '').replace(WORD_JOINERS, '').match(INVISIBLE_IN_NAME);
    if (invisible) return refuse(`${label} must not contain invisible characters (${hex(invisible[0])})`);
  }
  if (codePoints(text) > max) return refuse(tooLong);
  return { ok: true, value: text };
}

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
