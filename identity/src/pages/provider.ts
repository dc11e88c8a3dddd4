import { type Page, renderPage, sha256, type Site } from './layout.ts';

const AUTO_SUBMIT = `document.getElementById('op.logoutForm').submit();`;

/**
 * oidc-provider's logout form, submitted at once: only for a request that carries the id_token_hint
 * of the session's own sign-in (keycloak-js sends it; Keycloak then signs out without asking).
 * `logout=yes` ends the whole session, not just the one client.
 */
export function logoutPage(form: string, site: Site): Page {
  const withLogout = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  const body = `<h1>Signing you out…</h1>
${withLogout}
<noscript><button type="submit" class="primary" form="op.logoutForm">Sign out</button></noscript>`;
  return renderPage({ title: 'Signing out', body, script: AUTO_SUBMIT, site });
}

const PROBE_SCRIPT = `window.parent.postMessage("unsupported", "*");`;

/**
 * keycloak-js third-party-cookie probe: always report "unsupported" so it skips the session iframe.
 * The forum's pages frame it (`frameAncestors`); its CSP allows its one script by hash, nothing else.
 */
export function thirdPartyCookiesProbe(frameAncestors: readonly string[]): Page {
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>3p-cookies</title></head><body><script>${PROBE_SCRIPT}</script></body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(PROBE_SCRIPT)}`,
    `frame-ancestors ${frameAncestors.join(' ')}`,
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { status: 200, html, csp };
}

/**
 * The policy of every answer of oidc-provider itself (the realm's own pages set theirs): nothing may
 * load or run, except what oidc-provider adds by hash to `script-src` (its self-submitting form_post
 * page). The placeholder is the hash of an empty script, which allows nothing.
 */
export function providerCsp(formTargets: readonly string[], frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${sha256('')}`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    `frame-ancestors ${frameAncestors.join(' ')}`,
    "base-uri 'none'",
  ].join('; ');
}
