import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizeEmail } from '@forum/contracts';
import type { RealmContext } from '../context.ts';
import { methodNotAllowed, readForm, redirect, sendPage } from '../http.ts';
import type { Interactions } from '../interaction.ts';
import { DISABLED_MESSAGE, INVALID_CREDENTIALS_MESSAGE } from '../messages.ts';
import { loginPage, type Page } from '../pages/index.ts';
import { forgotUrl, loginUrl, registerUrl } from '../paths.ts';
import { tooManyAttemptsMessage, tooManyRequestsMessage } from '../throttle.ts';

/** What a refused form's page shows after the redirect (flash.ts). */
type LoginFlash = { email: string; error: string; status?: number };

/** The login page: email and password under the back-off, post-redirect-get for refusals. */
export function createSignInFlow({ csrf, site, flash, log, passwordSignIn }: RealmContext, { googleButton, pendingLogin, signIn }: Interactions) {
  function loginView(uid: string, options: { email: string; error?: string; info?: string[]; status?: number }): Page {
    return loginPage({
      action: loginUrl(uid),
      csrf: csrf.forInteraction('login', uid),
      email: options.email,
      error: options.error,
      info: options.info,
      status: options.status,
      registerUrl: registerUrl(uid),
      resetUrl: forgotUrl(uid),
      google: googleButton(uid),
      site,
    });
  }

  async function login(req: IncomingMessage, res: ServerResponse, uid: string) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const details = await pendingLogin(req, res, uid);
    if (!details) return;

    const flashKey = `login:${uid}`;
    if (req.method === 'GET') {
      const refused = await flash.take<LoginFlash>(flashKey);
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, 254) : '';
      sendPage(res, loginView(uid, refused ?? { email: hint }));
      return;
    }

    const form = await readForm(req);
    const email = normalizeEmail(form?.get('email') ?? '');
    /** Post-redirect-get: the page shows the refusal once, with the address typed (never the password). */
    const refuse = async (error: string, status?: number) => {
      await flash.put<LoginFlash>(flashKey, { email, error, status });
      redirect(res, loginUrl(uid));
    };
    if (!form || !csrf.validForInteraction('login', uid, form.get('csrf'))) return refuse('Your session has expired. Please sign in again.', 403);
    const outcome = await passwordSignIn(req, email, form.get('password') ?? '');
    if (outcome.result === 'held') {
      log.info({ clientId: details.params.client_id }, 'sign-in refused: too many failed attempts');
      return refuse(tooManyAttemptsMessage(outcome.retryMs), 429);
    }
    if (outcome.result === 'busy') {
      log.warn({ clientId: details.params.client_id }, 'sign-in refused: sign-ins in flight did not end in time');
      return refuse(tooManyRequestsMessage(outcome.retryMs), 503);
    }
    if (outcome.result === 'wrong') {
      const wait = outcome.retryMs;
      log.info({ clientId: details.params.client_id, held: wait > 0 }, 'sign-in refused: invalid credentials');
      return wait ? refuse(tooManyAttemptsMessage(wait), 429) : refuse(INVALID_CREDENTIALS_MESSAGE);
    }
    if (outcome.result === 'disabled') {
      log.info({ accountId: outcome.record.id }, 'sign-in refused: account disabled');
      return refuse(DISABLED_MESSAGE, 403);
    }
    await signIn(req, res, details, outcome.record, 'password', ['pwd']);
  }

  return { login, loginView };
}
