import { HEADER_EVENT_POSITION, REGISTER_ACTION } from '@forum/contracts';
import type Keycloak from 'keycloak-js';
import { hasAuthCallback, refreshDelayMs, userFromClaims, type AuthUser } from './helpers.ts';
import { revokeRefreshToken } from './revoke.ts';
import { adoptAnswer, silentAnswer } from './silent-frame.ts';

/** Where the realm is and who the app is: keycloak-js builds `${url}/realms/${realm}/protocol/openid-connect/…`. */
export interface AuthOptions {
  /** The identity server, e.g. `location.origin` (embedded realm, or Keycloak behind the same origin). */
  readonly url: string;
  readonly realm: string;
  /** 'forum-web' or 'admin-web': public clients, authorization code + PKCE. */
  readonly clientId: string;
  /**
   * The forum's registration of a member (contracts' REGISTRATION_PATH on the forum's origin): POSTed
   * with the new token once the page comes back signed in from the realm (a sign-in or a sign-up).
   */
  readonly registrationUrl?: string;
}

export interface AuthInitOptions {
  /** Only 'check-sso': public pages stay public, a session at the realm signs the visitor in without a prompt. */
  readonly onLoad?: 'check-sso';
  /** The session iframe needs third-party cookies and is not served by the embedded realm. */
  readonly checkLoginIframe?: false;
  readonly pkceMethod?: 'S256';
  /**
   * A page of the app's own origin that posts its URL to the parent
   * (`<script>parent.postMessage(location.href, location.origin)</script>`): check-sso then runs in a
   * hidden iframe instead of sending the whole page through the realm on every load.
   */
  readonly silentCheckSsoRedirectUri?: string;
  /** How long the first check may take before the visitor is treated as signed out (default 10 s). */
  readonly timeoutMs?: number;
}

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthState {
  readonly status: AuthStatus;
  readonly user: AuthUser | null;
  /** Why the last sign-in or check failed (an OAuth error code or a message), else null. */
  readonly error: string | null;
}

/**
 * What the page just came back from, once: the apps greet it (spec §8 'Login Successfully', 'Logout
 * Successfully'); 'erased' is a sign-out after the member erased their own account.
 */
export type AuthReturn = 'login' | 'register' | 'logout' | 'erased';

export interface LoginOptions {
  /** Where the realm sends the browser back to; default the current page. */
  readonly redirectUri?: string;
  /** Skip the realm's login page and go straight to that identity provider (Keycloak's `kc_idp_hint`, e.g. 'google'). */
  readonly idpHint?: string;
  readonly loginHint?: string;
  /** Replace the current history entry (a /joinUs page that only forwards), so Back does not bounce to the realm again. */
  readonly replace?: boolean;
}

export interface Auth {
  /** Idempotent: later calls return the first call's promise. */
  init(options?: AuthInitOptions): Promise<AuthState>;
  getState: () => AuthState;
  /** Called on every change of status, user or roles; returns the unsubscribe function. */
  onChange: (listener: (state: AuthState) => void) => () => void;
  /** What the page came back from ('login', 'register', 'logout'), or null; cleared by reading it. */
  takeReturn(): AuthReturn | null;
  login(options?: LoginOptions): Promise<never>;
  register(options?: Omit<LoginOptions, 'idpHint'>): Promise<never>;
  /**
   * Revokes the refresh token (best effort), then ends the session at the realm and comes back to `redirectUri`.
   * `erased`: the account has just been erased, and the page it comes back to says so rather than 'signed out'.
   */
  logout(options: { redirectUri: string; erased?: boolean }): Promise<never>;
  /** A fresh access token (refreshed when it expires within 30 s), or undefined when signed out; waits for init(). */
  token(): Promise<string | undefined>;
  /**
   * Just after a sign-in: the event position of the forum's record of the member (the answer of
   * `registrationUrl`), which the page's reads of the member must reflect; null otherwise (no sign-in
   * just now, already recorded, or the recording failed). Waits for init() and for that answer.
   */
  registration(): Promise<string | null>;
  hasRole(role: string): boolean;
}

/** token() refreshes a token that expires within this many seconds (`updateToken(30)`). */
export const MIN_VALIDITY_SECONDS = 30;
/** The scheduled refresh runs this long before expiry, ahead of token()'s window so requests rarely wait. */
const REFRESH_AHEAD_SECONDS = 45;
const RETRY_REFRESH_MS = 10_000;
const PENDING_TTL_MS = 15 * 60_000;
const DEFAULT_INIT_TIMEOUT_MS = 10_000;

const never = () => new Promise<never>(() => {});

function errorText(error: unknown): string {
  if (error && typeof error === 'object') {
    const { error: code, error_description: description, message } = error as { error?: unknown; error_description?: unknown; message?: unknown };
    if (typeof code === 'string') return typeof description === 'string' && description ? `${code}: ${description}` : code;
    if (typeof message === 'string') return message;
  }
  return String(error);
}

/**
 * The browser side of sign-in, shared by forum-web and admin-web: keycloak-js against the
 * realm (the embedded one or Keycloak), plain TypeScript with a subscription for the UI.
 * Tokens live in memory only; a reload asks the realm again (check-sso).
 */
/**
 * The state until the sign-in check has answered: one object, which a page rendered on a server also
 * shows (useAuthState's server snapshot), so hydrating that page finds nothing changed.
 */
export const NOT_KNOWN_YET: AuthState = Object.freeze({ status: 'loading', user: null, error: null });

export function createAuth(options: AuthOptions): Auth {
  // keycloak-js arrives with init(): it is not part of what a page needs to show itself first
  let keycloak: Keycloak | null = null;
  const pendingKey = `web-auth:${options.clientId}:pending`;
  const listeners = new Set<(state: AuthState) => void>();
  let state: AuthState = NOT_KNOWN_YET;
  let initialized = false;
  let initPromise: Promise<AuthState> | null = null;
  let returned: AuthReturn | null = null;
  /** The realm said the page's sign-in registered the account (also when the page asked for a sign-in). */
  let registered = false;
  /** The forum's record of the member after this page's sign-in: its event position, once answered. */
  let recorded: Promise<string | null> = Promise.resolve(null);
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;

  // ---- state

  function publish(error: string | null = state.error) {
    const user = keycloak?.authenticated ? userFromClaims(keycloak.tokenParsed, keycloak.idTokenParsed) : null;
    // 'loading' until init() settles, so the apps learn what the page came back from (takeReturn) before they render
    const status: AuthStatus = !initialized ? 'loading' : user ? 'authenticated' : 'anonymous';
    const same =
      state.status === status &&
      state.error === error &&
      state.user?.id === user?.id &&
      state.user?.name === user?.name &&
      state.user?.email === user?.email &&
      state.user?.picture === user?.picture &&
      state.user?.roles.join() === user?.roles.join();
    if (same) return;
    state = { status, user, error };
    for (const listener of [...listeners]) listener(state);
  }

  // ---- what the page is coming back from (survives the round trip through the realm, per tab)

  function rememberPending(action: AuthReturn, hash = '') {
    try {
      sessionStorage.setItem(pendingKey, JSON.stringify({ action, at: Date.now(), hash }));
    } catch {
      // storage disabled: the page simply does not greet the return
    }
  }

  function takePending(): { action: AuthReturn; hash: string } | null {
    try {
      const raw = sessionStorage.getItem(pendingKey);
      sessionStorage.removeItem(pendingKey);
      if (!raw) return null;
      const { action, at, hash } = JSON.parse(raw) as { action?: unknown; at?: unknown; hash?: unknown };
      if (typeof at !== 'number' || Date.now() - at > PENDING_TTL_MS) return null;
      if (action !== 'login' && action !== 'register' && action !== 'logout' && action !== 'erased') return null;
      return { action, hash: typeof hash === 'string' && hash.startsWith('#') ? hash : '' };
    } catch {
      return null;
    }
  }

  /**
   * A redirect URI may not carry a fragment (OAuth 2.0; the realm refuses it), and keycloak-js
   * uses the fragment for its answer: the page's own fragment ('#comments') waits in the pending
   * record and comes back once the answer is read.
   */
  function withoutFragment(uri: string): { uri: string; hash: string } {
    const url = new URL(uri, window.location.href);
    const hash = url.hash;
    url.hash = '';
    return { uri: url.href, hash };
  }

  function restoreFragment(hash: string) {
    if (!hash || window.location.hash) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${hash}`);
  }

  // ---- refresh ahead of expiry

  function scheduleRefresh(delayMs?: number) {
    clearTimeout(refreshTimer);
    refreshTimer = undefined;
    const kc = keycloak;
    if (!kc?.authenticated) return;
    const delay = delayMs ?? refreshDelayMs(kc.tokenParsed?.exp, kc.timeSkew, Date.now(), REFRESH_AHEAD_SECONDS);
    if (delay === null) return;
    refreshTimer = setTimeout(() => {
      // forced: a refresh in between (token()) would have rescheduled this timer
      kc.updateToken(-1).catch(() => {
        // a refused refresh token (session ended) has already signed the page out; a network failure is retried
        if (kc.authenticated) scheduleRefresh(RETRY_REFRESH_MS);
      });
    }, delay);
  }

  async function loadKeycloak(): Promise<Keycloak> {
    const { default: KeycloakClient } = await import('keycloak-js');
    const kc = new KeycloakClient({ url: options.url, realm: options.realm, clientId: options.clientId });
    kc.onAuthSuccess = () => {
      publish(null);
      scheduleRefresh();
    };
    kc.onAuthRefreshSuccess = () => {
      publish();
      scheduleRefresh();
    };
    kc.onAuthLogout = () => {
      clearTimeout(refreshTimer);
      publish();
    };
    kc.onAuthRefreshError = () => publish();
    kc.onActionUpdate = (status, action) => {
      if (action === REGISTER_ACTION && status === 'success') registered = true;
    };
    return kc;
  }

  if (typeof document !== 'undefined') {
    // timers of background tabs are throttled: catch up when the tab is seen again
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && initialized) scheduleRefresh();
    });
  }

  /**
   * After a sign-in, the forum records the member (idempotent): in the background and best effort,
   * since a member the forum has not recorded yet is read from their token and recorded by their
   * first command anyway.
   */
  function registerWithForum(kc: Keycloak) {
    const url = options.registrationUrl;
    if (!url || !kc.token) return;
    recorded = fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${kc.token}` } }).then(
      (answer) => {
        if (answer.ok) return answer.headers.get(HEADER_EVENT_POSITION);
        console.warn(`web-auth: the forum's registration answered ${answer.status}`);
        return null;
      },
      (failure: unknown) => {
        console.warn(`web-auth: the forum's registration failed: ${errorText(failure)}`);
        return null;
      },
    );
  }

  async function ready(): Promise<Keycloak> {
    if (!initPromise) throw new Error('web-auth: call init() first');
    await initPromise;
    if (!keycloak) throw new Error(`web-auth: the sign-in client did not load (${state.error ?? 'unknown error'})`);
    return keycloak;
  }

  async function go(url: string, replace: boolean | undefined): Promise<never> {
    if (replace) window.location.replace(url);
    else window.location.assign(url);
    return never();
  }

  return {
    init(initOptions = {}) {
      initPromise ??= (async () => {
        const timeoutMs = initOptions.timeoutMs ?? DEFAULT_INIT_TIMEOUT_MS;
        const sameOrigin = new URL(options.url, window.location.href).origin === window.location.origin;
        let kc: Keycloak;
        try {
          kc = keycloak = await loadKeycloak();
        } catch (failure) {
          // the client's chunk did not load (offline, a release replaced it): the page goes on signed out
          initialized = true;
          publish(errorText(failure));
          return state;
        }
        const pkceMethod = initOptions.pkceMethod ?? 'S256';
        const silentUri = initOptions.silentCheckSsoRedirectUri;
        // on the page's own origin, check-sso runs in a frame of the app's own (see silent-frame.ts); init() without
        // onLoad takes the realm's answer from the page's URL (that frame's, or a full-page sign-in's), or finds none
        const ownCheck = sameOrigin && silentUri !== undefined && (initOptions.onLoad ?? 'check-sso') === 'check-sso';
        const started = ownCheck
          ? (async () => {
              if (hasAuthCallback(window.location.href)) return kc.init({ checkLoginIframe: false, pkceMethod, responseMode: 'fragment' });
              // a second client only writes the sign-in request (its state and PKCE verifier, kept where
              // keycloak-js keeps them), so that the app's client can take the answer as its own
              const { default: KeycloakClient } = await import('keycloak-js');
              const asker = new KeycloakClient({ url: options.url, realm: options.realm, clientId: options.clientId });
              await asker.init({ checkLoginIframe: false, pkceMethod, responseMode: 'fragment' });
              const answer = await silentAnswer(await asker.createLoginUrl({ prompt: 'none', redirectUri: silentUri }), timeoutMs);
              const ownHash = answer ? adoptAnswer(answer) : '';
              try {
                // no answer within the time: the page stays signed out
                return await kc.init({ checkLoginIframe: false, pkceMethod, responseMode: 'fragment' });
              } finally {
                restoreFragment(ownHash);
              }
            })()
          : kc.init({
              onLoad: initOptions.onLoad ?? 'check-sso',
              checkLoginIframe: initOptions.checkLoginIframe ?? false,
              pkceMethod,
              responseMode: 'fragment',
              silentCheckSsoRedirectUri: silentUri,
              // another origin's realm: its check-sso frame is third-party, and blocked third-party cookies
              // send the whole page through the realm instead
              silentCheckSsoFallback: true,
              messageReceiveTimeout: timeoutMs,
            });
        let error: string | null = null;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = new Error(`the sign-in service did not answer within ${timeoutMs} ms`);
        try {
          await Promise.race([
            started,
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(timedOut), timeoutMs);
            }),
          ]);
        } catch (failure) {
          if (failure === timedOut) {
            // not a failed sign-in: the page goes on signed out, and a late answer still signs it in (onAuthSuccess)
            console.warn(`web-auth: ${timedOut.message}`);
          } else {
            error = errorText(failure);
          }
          started.catch(() => {});
        } finally {
          clearTimeout(timer);
        }
        initialized = true;
        const pending = takePending();
        if ((pending?.action === 'login' || pending?.action === 'register') && kc.authenticated) returned = registered ? 'register' : pending.action;
        if ((pending?.action === 'logout' || pending?.action === 'erased') && !kc.authenticated) returned = pending.action;
        if (pending) restoreFragment(pending.hash);
        if (returned === 'login' || returned === 'register') registerWithForum(kc);
        publish(error);
        scheduleRefresh();
        return state;
      })();
      return initPromise;
    },

    getState: () => state,

    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    takeReturn() {
      const value = returned;
      returned = null;
      return value;
    },

    async login(loginOptions = {}) {
      const kc = await ready();
      const back = withoutFragment(loginOptions.redirectUri ?? window.location.href);
      const url = await kc.createLoginUrl({
        redirectUri: back.uri,
        idpHint: loginOptions.idpHint,
        loginHint: loginOptions.loginHint,
      });
      rememberPending('login', back.hash);
      return go(url, loginOptions.replace);
    },

    async register(registerOptions = {}) {
      const kc = await ready();
      const back = withoutFragment(registerOptions.redirectUri ?? window.location.href);
      const url = await kc.createRegisterUrl({
        redirectUri: back.uri,
        loginHint: registerOptions.loginHint,
      });
      rememberPending('register', back.hash);
      return go(url, registerOptions.replace);
    },

    async logout({ redirectUri, erased = false }) {
      const kc = await ready();
      clearTimeout(refreshTimer);
      const back = withoutFragment(redirectUri);
      rememberPending(erased ? 'erased' : 'logout', back.hash);
      await revokeRefreshToken(options, kc.refreshToken);
      // GET to the end-session endpoint with id_token_hint; Keycloak signs out without a confirmation page
      await kc.logout({ redirectUri: back.uri });
      return never();
    },

    async token() {
      // a call made while the page still checks its session waits for the answer rather than going out anonymous
      if (initPromise) await initPromise;
      const kc = keycloak;
      if (!kc?.authenticated) return undefined;
      try {
        await kc.updateToken(MIN_VALIDITY_SECONDS);
      } catch {
        // refused (the session is over: keycloak-js has signed the page out) or unreachable (the current token may still do)
      }
      if (!kc.authenticated || !kc.token) return undefined;
      return kc.isTokenExpired() ? undefined : kc.token;
    },

    async registration() {
      if (initPromise) await initPromise;
      return recorded;
    },

    hasRole: (role) => state.user?.roles.includes(role) ?? false,
  };
}
