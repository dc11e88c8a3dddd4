import type { IncomingMessage, ServerResponse } from 'node:http';
import { isEmail, normalizeEmail } from '@forum/contracts';
import { clientAddress } from '@forum/platform';
import type { RealmContext } from '../context.ts';
import { methodNotAllowed, readForm, redirect, sendPage } from '../http.ts';
import { RESET_SENT_MESSAGE } from '../messages.ts';
import { type MailLink, RESET_TOKEN_KIND, RESET_TOKEN_TTL_SECONDS } from '../one-time-link.ts';
import { escapeHtml, forgotPasswordPage, resetRequestedPage } from '../pages/index.ts';
import { ACTION_TOKEN_PATH, forgotUrl, loginUrl, REALM_PATH, registerUrl, RESET_PATH, UID } from '../paths.ts';
import { tooManyRequestsMessage } from '../throttle.ts';

/** What a refused form's page shows after the redirect (flash.ts). */
type ForgotFlash = { email: string; error?: string; status?: number; sent?: boolean };

/** Forgot password: the same answer whether or not the account exists; the mail is sent afterwards. */
export function createForgotPasswordFlow({ csrf, site, flash, log, trustProxy, throttle, accounts, background }: RealmContext, mailLink: MailLink) {
  const inBackground = background.run;
  async function sendResetMail(email: string, interactionUid: string | null) {
    if (!(await throttle.resetMailAllowed(email))) {
      log.info('password reset mail not sent: too many for this email');
      return;
    }
    const account = await accounts.findByEmail(email);
    if (!account || !account.enabled) {
      log.info('password reset requested for an email without an (enabled) account');
      return;
    }
    const minutes = RESET_TOKEN_TTL_SECONDS / 60;
    await mailLink(account, { kind: RESET_TOKEN_KIND, path: ACTION_TOKEN_PATH, ttlSeconds: RESET_TOKEN_TTL_SECONDS, interactionUid }, (link) => ({
      subject: 'Reset your Forum password',
      text: `Hello ${account.name},\n\nSomeone (hopefully you) asked to reset the password of your Forum account ${account.email}.\n\nOpen this link within ${minutes} minutes to choose a new password:\n${link}\n\nThe link works once. If you did not ask for this, ignore this mail: your password stays as it is.\n`,
      html: `<p>Hello ${escapeHtml(account.name)},</p><p>Someone (hopefully you) asked to reset the password of your Forum account ${escapeHtml(account.email)}.</p><p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, for ${minutes} minutes).</p><p>If you did not ask for this, ignore this mail: your password stays as it is.</p>`,
    }));
    log.info({ accountId: account.id }, 'password reset mail sent');
  }

  async function forgotPassword(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const form = req.method === 'POST' ? await readForm(req) : null;
    const given = form?.get('interaction') ?? query.get('interaction');
    const uid = given && UID.test(given) ? given : undefined;
    const view = (email: string, error?: string, status?: number) =>
      forgotPasswordPage({
        action: `${REALM_PATH}${RESET_PATH}`,
        csrf: csrf.issue(req, res, 'forgot'),
        email,
        interaction: uid,
        error,
        status,
        loginUrl: uid ? loginUrl(uid) : undefined,
        site,
        join: uid ? { login: loginUrl(uid), register: registerUrl(uid) } : undefined,
      });
    // no pending sign-in to key the flash by (the form works without one): this browser's own cookie
    const flashKey = `forgot:${csrf.browserKey(req, res)}`;
    if (req.method === 'GET') {
      const shown = await flash.take<ForgotFlash>(flashKey);
      if (shown?.sent) return sendPage(res, resetRequestedPage({ lines: [RESET_SENT_MESSAGE], loginUrl: uid ? loginUrl(uid) : undefined, site }));
      if (shown) return sendPage(res, view(shown.email, shown.error, shown.status));
      const hint = query.get('email') ?? '';
      sendPage(res, view(isEmail(normalizeEmail(hint)) ? normalizeEmail(hint) : ''));
      return;
    }
    const email = normalizeEmail(form?.get('email') ?? '');
    /** Post-redirect-get: the outcome is shown once by the form's GET page. */
    const answer = async (outcome: ForgotFlash) => {
      await flash.put<ForgotFlash>(flashKey, outcome);
      redirect(res, forgotUrl(uid));
    };
    if (!form || !csrf.valid(req, 'forgot', form.get('csrf'))) return answer({ email, error: 'Your session has expired. Please try again.', status: 403 });
    if (!isEmail(email)) return answer({ email, error: 'Enter a valid email address.', status: 400 });
    const wait = await throttle.resetRequested(clientAddress(req, trustProxy));
    if (wait) return answer({ email, error: tooManyRequestsMessage(wait), status: 429 });
    inBackground(() => sendResetMail(email, uid ?? null));
    await answer({ email: '', sent: true });
  }

  return forgotPassword;
}
