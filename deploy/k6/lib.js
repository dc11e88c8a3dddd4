// What the k6 scripts share: where the forum is, how a script signs in, and the headers
// the forum's API uses (contracts: X-Event-Position, X-Min-Position, X-Read-Behind).
import http from 'k6/http';

/** The forum's base URL (the gateway), e.g. https://forum.example.com. */
export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:3000').replace(/\/+$/, '');
/** The realm's issuer: the embedded realm on the forum's origin unless Keycloak is elsewhere. */
export const ISSUER = (__ENV.OIDC_ISSUER || `${BASE_URL}/realms/forum`).replace(/\/+$/, '');

export const HEADER_EVENT_POSITION = 'X-Event-Position';
export const HEADER_MIN_POSITION = 'X-Min-Position';
export const HEADER_READ_BEHIND = 'X-Read-Behind';

/**
 * An access token for a member, by the password grant of the forum-cli client (the embedded
 * realm and test realms only: docs/identity.md). Call it in setup(); tokens live 5 minutes,
 * so keep a run shorter or sign in again.
 */
export function signIn(email, password) {
  const answer = http.post(`${ISSUER}/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'forum-cli', username: email, password });
  if (answer.status !== 200) throw new Error(`sign-in of ${email}: ${answer.status} ${answer.body}`);
  return answer.json('access_token');
}

/** The members a script writes as: WRITER_EMAILS (comma-separated, Gold members) with WRITER_PASSWORD. */
export function writers() {
  const emails = (__ENV.WRITER_EMAILS || 'alice@forum.local,bob@forum.local')
    .split(',')
    .map((email) => email.trim())
    .filter(Boolean);
  const password = __ENV.WRITER_PASSWORD || 'Forum#2026';
  return emails.map((email) => ({ email, token: signIn(email, password) }));
}

export const json = (token) => ({ headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } });
