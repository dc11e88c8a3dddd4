/**
 * What no log line of any process may hold (docs/security/logs.md). Every logger of createLogger
 * passes each line through redactSecrets before it is written, whatever wrote it: the access log,
 * a library's error, the realm's own lines.
 */

/**
 * Parameters whose values are secrets, or personal data a URL should not carry into a log. Wherever
 * `name=value` appears in a line (a query string, a fragment, a form body, a cookie, an error's
 * message), the value is written `…`.
 */
export const SECRET_PARAMETERS = [
  // the realm's one-time links: password reset (login-actions/action-token) and email verification
  'key',
  // OAuth and OpenID Connect (RFC 6749, 7636, 7009, 7662, OpenID RP-initiated logout): codes and
  // what proves them, tokens wherever they travel, a client's secret, the ID token of a sign-out
  // link (the member's email and name); `state` is a client's anti-forgery value of its sign-in
  'code',
  'code_verifier',
  'state',
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'token',
  'client_secret',
  'client_assertion',
  'login_hint',
  // forms: passwords, and the tokens that guard the forms (the realm's csrf, oidc-provider's xsrf)
  'password',
  'password-confirm',
  'csrf',
  'xsrf',
  // the change stream's ticket (GET /api/stream?ticket=)
  'ticket',
] as const;

/** The header fields whose values are credentials: a line's `"authorization":"…"` (a request's headers in an error) keeps its name only. */
export const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'] as const;

const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_PARAMETERS);
/** The longest name of SECRET_PARAMETERS: a longer run before `=` is no secret parameter's name. */
const LONGEST_NAME = Math.max(...SECRET_PARAMETERS.map((name) => name.length));

/** A character of a parameter's name: a letter, a digit, `_`, `.` or `-`. */
const isNameChar = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 46 || code === 45;
/** Where a value ends: `&`, `#`, `;`, `,`, a space, a quote, an escape (`\`), `<` or `>`. */
const endsValue = (code: number) =>
  code === 38 || code === 35 || code === 59 || code === 44 || code <= 32 || code === 34 || code === 39 || code === 92 || code === 60 || code === 62;

/**
 * `text` with the value of every `name=value` whose name (in any case) is a secret parameter's
 * written `…`; a name is the whole run of name characters before `=` (`monkey=` is not `key=`).
 * A scan from `=` to `=`: an access line runs through it in well under a microsecond.
 */
function redactParameters(text: string): string {
  let redacted = '';
  let copied = 0;
  for (let at = text.indexOf('='); at !== -1; at = text.indexOf('=', at + 1)) {
    let start = at;
    while (start > 0 && at - start <= LONGEST_NAME && isNameChar(text.charCodeAt(start - 1))) start--;
    if (start === at || (start > 0 && isNameChar(text.charCodeAt(start - 1))) || !SECRET_NAMES.has(text.slice(start, at).toLowerCase())) continue;
    let end = at + 1;
    while (end < text.length && !endsValue(text.charCodeAt(end))) end++;
    if (end === at + 1) continue;
    redacted += `${text.slice(copied, at + 1)}…`;
    copied = end;
    at = end - 1;
  }
  return copied === 0 ? text : redacted + text.slice(copied);
}

/** A header's value in JSON: a string, or an array of strings (set-cookie). */
const HEADER = new RegExp(`("(?:${SECRET_HEADERS.join('|')})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|\\[(?:\\s*"(?:[^"\\\\]|\\\\.)*"\\s*,?)*\\])`, 'gi');
/** Whether a line may hold a header, a token or a bearer token at all: one scan for the three rules below. */
const HINT = new RegExp(`"(?:${SECRET_HEADERS.join('|')})"|eyJ|bearer`, 'i');
/** A JSON Web Token (JWS or JWE compact: what access, refresh and ID tokens are here) under any name, or none. */
const JWT = /\beyJ[\w-]{8,}\.[\w-]*\.[\w-]*(?:\.[\w-]*\.[\w-]*)?/g;
/** A bearer token written as text (an Authorization header in an error's message). */
const BEARER = /\b(Bearer)\s+[\w.~+/-]{16,}=*/gi;

/**
 * `text` (a log line as JSON, or any text) with every secret it carries written `…`. Each rule runs
 * only on a line that has what it looks for: most lines pass through two quick scans.
 */
export function redactSecrets(text: string): string {
  const redacted = redactParameters(text);
  return HINT.test(redacted) ? redacted.replace(HEADER, '$1"…"').replace(JWT, '…').replace(BEARER, '$1 …') : redacted;
}
