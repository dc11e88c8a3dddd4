/**
 * check-sso in a hidden iframe of the app's own: the realm's answer to a `prompt=none` sign-in
 * request, as the URL the silent check-sso page (silent-check-sso.ts) ends on and posts to its parent.
 *
 * keycloak-js's own silent check (its `silentCheckSsoRedirectUri`) first loads a third-party-cookie
 * probe frame, and sandboxes both frames with `allow-scripts allow-same-origin`: Chrome warns of
 * that pair on every page load, and for a page of the app's own origin it protects nothing (such a
 * page may lift its own sandbox). On the app's own origin neither frame is needed beyond this one.
 */
export function silentAnswer(loginUrl: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.title = 'Checking the sign-in';
    frame.hidden = true;
    // the page posts its answer while it is still loading (its script runs before its load event):
    // the frame goes once it has loaded, since removing it earlier aborts the page's own request
    let loaded = false;
    frame.addEventListener('load', () => (loaded = true), { once: true });
    const done = (answer: string | null) => {
      clearTimeout(timer);
      window.removeEventListener('message', received);
      if (answer === null || loaded) frame.remove();
      else {
        frame.addEventListener('load', () => frame.remove(), { once: true });
        setTimeout(() => frame.remove(), timeoutMs);
      }
      resolve(answer);
    };
    const received = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== frame.contentWindow || typeof event.data !== 'string') return;
      done(event.data);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    window.addEventListener('message', received);
    frame.src = loginUrl;
    document.body.append(frame);
  });
}

/**
 * Puts the realm's answer (`answer`, a URL whose fragment holds `state` and `code` or `error`) into
 * the page's own URL for keycloak-js's init() to take, as it takes the answer of a full-page sign-in;
 * init() takes it out again. Returns the page's own fragment, to restore afterwards.
 */
export function adoptAnswer(answer: string): string {
  const own = window.location.hash;
  const { hash } = new URL(answer);
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${hash}`);
  return own;
}
