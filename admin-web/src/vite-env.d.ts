/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The identity server when it is not on the page's own origin (Keycloak's base URL or the realm's issuer URL). */
  readonly VITE_OIDC_URL?: string;
}
