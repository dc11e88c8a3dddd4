import { HANDLE_MAX, HANDLE_MIN, HANDLE_PATTERN, RESERVED_HANDLES, foldHandle, handleText } from '@forum/contracts';

/** How many numbered handles (base, base1, base2…) registration tries before a random suffix. */
export const NUMBERED_TRIES = 10;

const rule = handleText();

/** Whether `handle` follows the rules (HANDLE_PATTERN, its length, not reserved). */
export const isValidHandle = (handle: string): boolean => rule.safeParse(handle).success;

/**
 * A handle made from a display name: letters folded to ASCII (é → e), every run of other characters
 * one `_` (none first or last), at most HANDLE_MAX characters; a name with too few letters is padded
 * with `_` to HANDLE_MIN, one with none is `member`. 'Zoë Martin-Ruiz' → 'Zoe_Martin_Ruiz'.
 */
export function handleBase(name: string): string {
  const ascii = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  const kept = ascii
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, HANDLE_MAX)
    .replace(/_+$/, '');
  if (kept === '') return 'member';
  return kept.padEnd(HANDLE_MIN, '_');
}

/** `base` with `suffix` after it, the base shortened so that the whole fits HANDLE_MAX. */
export const withSuffix = (base: string, suffix: string) => `${base.slice(0, HANDLE_MAX - suffix.length)}${suffix}`;

/** How many handles with a random suffix registration tries after the numbered ones were all taken. */
const RANDOM_TRIES = 5;

/**
 * The handles with a random suffix registration tries next: the name's base with `_1000` to
 * `_999999`, each number drawn by `draw(min, max)` (max excluded, as node:crypto's randomInt).
 */
export const randomHandles = (name: string, draw: (min: number, max: number) => number): string[] =>
  Array.from({ length: RANDOM_TRIES }, () => withSuffix(handleBase(name), `_${draw(1000, 1_000_000)}`));

/**
 * The handles registration tries for a member, in order: the one they chose (when it follows the
 * rules), then the name's base, base1, base2… (NUMBERED_TRIES in all; a reserved one skipped).
 */
export function handleCandidates(name: string, chosen?: string): string[] {
  const base = handleBase(name);
  const numbered = Array.from({ length: NUMBERED_TRIES }, (_, n) => (n === 0 ? base : withSuffix(base, String(n))));
  const all = [...(chosen !== undefined && isValidHandle(chosen) ? [chosen] : []), ...numbered];
  return [...new Set(all)].filter((handle) => HANDLE_PATTERN.test(handle) && !RESERVED_HANDLES.includes(foldHandle(handle)));
}
