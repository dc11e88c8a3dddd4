/** The embedded realm as a browser meets it, for tests of the whole forum. */

/**
 * The realm's login page for forum-web, as a browser reaches it: the authorization request
 * (code flow with PKCE), then the redirect it answers, with the cookies it set.
 */
export async function realmLoginPage(forum: { readonly issuer: string; readonly url: string }): Promise<Response> {
  const auth = new URL(`${forum.issuer}/protocol/openid-connect/auth`);
  auth.search = new URLSearchParams({
    client_id: 'forum-web',
    redirect_uri: `${forum.url}/`,
    response_type: 'code',
    scope: 'openid',
    state: 's',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  const start = await fetch(auth, { redirect: 'manual' });
  const cookie = start.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return fetch(new URL(start.headers.get('location')!, forum.url), { headers: { cookie } });
}
