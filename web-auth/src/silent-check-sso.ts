/**
 * The page keycloak-js's check-sso loads in a hidden iframe, under each web
 * app's base: it hands the realm's answer (in its URL) to the app in the parent
 * frame. The apps' Vite config (web-auth/vite.ts) serves and emits it.
 */
export const SILENT_CHECK_SSO_PAGE = 'silent-check-sso.html';

export const SILENT_CHECK_SSO_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Signing in…</title></head>
  <body>
    <script>
      // keycloak-js check-sso: hands the realm's answer (in this page's URL) to the app in the parent frame.
      parent.postMessage(location.href, location.origin);
    </script>
  </body>
</html>
`;
