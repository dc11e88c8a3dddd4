/**
 * The page keycloak-js's check-sso loads in a hidden iframe, under each web
 * app's base: it hands the realm's answer (in its URL) to the app in the parent
 * frame. The apps' Vite config (web-auth/vite.ts) serves and emits it, and its
 * script beside it (the apps' CSP runs no inline script); the gateway lets only
 * pages of the same origin frame it.
 */
import { SILENT_CHECK_SSO_PAGE, SILENT_CHECK_SSO_SCRIPT } from '@forum/contracts';

export { SILENT_CHECK_SSO_PAGE };

export const SILENT_CHECK_SSO_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Signing in…</title></head>
  <body>
    <script src="${SILENT_CHECK_SSO_SCRIPT}"></script>
  </body>
</html>
`;

/** keycloak-js check-sso: hands the realm's answer (in this page's URL) to the app in the parent frame. */
export const SILENT_CHECK_SSO_JS = `parent.postMessage(location.href, location.origin);\n`;
