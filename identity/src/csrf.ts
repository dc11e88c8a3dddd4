import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCookie, setCookie } from './http.ts';

/**
 * CSRF tokens of the realm's forms.
 * - Forms of a pending sign-in (login, register): an HMAC of the interaction uid; the
 *   interaction itself is bound to the browser by oidc-provider's signed cookie.
 * - Forms without one (forgot password, reset password): a signed double-submit cookie:
 *   a random HttpOnly cookie, and in the form an HMAC of its value.
 */
export const CSRF_COOKIE = 'forum_idp_csrf';
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

function equal(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createCsrf(key: Buffer, cookie: { path: string; secure: boolean }) {
  const mac = (purpose: string, value: string) => createHmac('sha256', key).update(`${purpose}:${value}`).digest('base64url');

  /** This browser's random cookie value; sets the cookie when it has none yet. */
  function browserValue(req: IncomingMessage, res: ServerResponse): string {
    let value = readCookie(req, CSRF_COOKIE);
    if (!value || !COOKIE_VALUE.test(value)) {
      value = randomBytes(32).toString('base64url');
      setCookie(res, CSRF_COOKIE, value, { path: cookie.path, maxAgeSeconds: 2 * 60 * 60, secure: cookie.secure });
      // a later call in the same response must reuse it
      (req.headers as Record<string, string>).cookie = `${req.headers.cookie ? `${req.headers.cookie}; ` : ''}${CSRF_COOKIE}=${value}`;
    }
    return value;
  }

  return {
    forInteraction: (purpose: 'login' | 'register', uid: string) => mac(purpose, uid),
    validForInteraction: (purpose: 'login' | 'register', uid: string, given: unknown) => equal(given, mac(purpose, uid)),

    /** The form token for this browser; sets the cookie when it has none yet. */
    issue: (req: IncomingMessage, res: ServerResponse, purpose: string): string => mac(`form:${purpose}`, browserValue(req, res)),
    /** A key of this browser for what only it may read (a flash of a form without a pending sign-in); sets the cookie when missing. */
    browserKey: (req: IncomingMessage, res: ServerResponse): string => mac('browser', browserValue(req, res)),
    valid(req: IncomingMessage, purpose: string, given: unknown): boolean {
      const value = readCookie(req, CSRF_COOKIE);
      return !!value && COOKIE_VALUE.test(value) && equal(given, mac(`form:${purpose}`, value));
    },
  };
}

export type Csrf = ReturnType<typeof createCsrf>;
