/// <reference types="vite/client" />

interface ImportMetaEnv {
  /**
   * The identity server when it is not on the page's own origin: Keycloak's base URL
   * (`https://sso.example.com`) or the realm's issuer (`https://sso.example.com/realms/forum`).
   */
  readonly VITE_OIDC_URL?: string;
}

interface Window {
  /** Set by the end-to-end tests before the app loads; the app then exposes `__FORUM_AUTH__`. */
  __FORUM_E2E__?: boolean;
  __FORUM_AUTH__?: { token(): Promise<string | undefined> };
}
