/**
 * Text the text policy refuses (docs/security/text-policy.md), by what is wrong with it. Sent in a
 * JSON body, a lone surrogate goes as its escape (\ud800), which the server's parser makes a lone
 * surrogate again.
 */
const HOSTILE_TEXT = {
  NUL: 'a\u0000b',
  'a lone surrogate': 'a\ud800b',
  'only zero-width spaces': '\u200b\u200b',
  'a right-to-left override': 'evil\u202egnp.exe',
} as const;

/**
 * The hostile values a field refuses, as [what, value] rows for `it.each`: every one for a line
 * (a name, a title, an email), all but the direction override for multi-line text (a description,
 * a comment), which right-to-left writers use.
 */
export function hostileText(kind: 'line' | 'body'): [string, string][] {
  return Object.entries(HOSTILE_TEXT).filter(([what]) => kind === 'line' || what !== 'a right-to-left override');
}
