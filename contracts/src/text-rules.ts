import { TAG_NAME_MAX } from './constants.ts';

/**
 * The one policy for every string a user sends: request bodies, query and path parameters, the
 * realm's register form. docs/security/text-policy.md has the table and the reasons.
 *
 * Order: a single string → no lone surrogates → line breaks as LF (multi-line texts) → no control
 * characters → NFC → trimmed → not empty / not only invisible characters → the kind's own rules →
 * at most `max` code points. Bad text is refused, never repaired behind the sender's back, except
 * for the lossless normalisations (CRLF → LF, NFC, trimming, runs of spaces in names).
 *
 * This module is the policy without zod: what a rule is, how a text is counted and checked
 * (checkText), and the rules the web apps count with (a tag's name). text-policy.ts builds the
 * API's zod schemas on it. No zod here: a page that only counts or checks does not load zod.
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

/**
 * What a name is checked against beyond the other kinds, built on the first name checked: the emoji
 * and script sets take the engine tens of milliseconds to build, which a page that loads this module
 * and checks no name (or not yet) does not spend.
 */
let namePatterns: { invisible: RegExp; emoji: RegExp; wordJoiners: RegExp } | undefined;
function forNames() {
  namePatterns ??= {
    /** Invisible inside a name: default-ignorable and format characters, the blank Braille pattern. */
    invisible: /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u,
    /** A recommended (RGI) emoji, sequences with zero-width joiners, variation selectors and tags included. */
    emoji: new RegExp('\\p{RGI_Emoji}', 'gv'),
    /** A joiner between two letters or marks of a joining script. */
    wordJoiners: new RegExp(
      JOINING_SCRIPTS.map(
        (script) => `(?<=[\\p{Script_Extensions=${script}}&&[\\p{L}\\p{M}]])[\\u200c\\u200d](?=[\\p{Script_Extensions=${script}}&&[\\p{L}\\p{M}]])`,
      ).join('|'),
      'gv',
    ),
  };
  return namePatterns;
}

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
    const { emoji, wordJoiners, invisible: invisibleInName } = forNames();
    const invisible = text.replace(emoji, '').replace(wordJoiners, '').match(invisibleInName);
    if (invisible) return refuse(`${label} must not contain invisible characters (${hex(invisible[0])})`);
  }
  if (codePoints(text) > max) return refuse(tooLong);
  return { ok: true, value: text };
}

/** A tag's name (a post's tags, a new tag): a name of at most TAG_NAME_MAX characters. */
export const tagNameRule = (label: string, required = `${label} must not be empty`): TextRule => ({ kind: 'name', label, max: TAG_NAME_MAX, required });

/** 'Add Tag' (POST /api/admin/tags, Manage Tags' counter). */
export const NEW_TAG_NAME_RULE = tagNameRule('Tag name', 'Tag name is required');
