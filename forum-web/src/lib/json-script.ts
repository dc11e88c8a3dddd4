/**
 * `value` as the text of a `<script type="application/ld+json">` (or of the state's JSON script): JSON
 * whose `<`, `>` and `&` are written as escapes, so no member's text can close the script (`</script>`)
 * or open a comment in it; U+2028 and U+2029 escaped too. JSON.stringify already writes NUL and the
 * other controls as \u escapes, and a lone surrogate as its \u escape (well-formed JSON.stringify).
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
