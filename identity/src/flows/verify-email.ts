import type { IncomingMessage, ServerResponse } from 'node:http';
import { EMAIL_VERIFICATION_TTL_SECONDS } from '@forum/contracts';
import type { RealmContext } from '../context.ts';
import { methodNotAllowed, readForm, sendPage } from '../http.ts';
import { type MailLink, VERIFY_TOKEN_KIND } from '../one-time-link.ts';
import { escapeHtml, messagePage, resetRequestedPage } from '../pages/index.ts';
import { REALM_PATH, VERIFY_EMAIL_PATH } from '../paths.ts';
import type { AccountRecord } from '../store.ts';
import { tooManyRequestsMessage } from '../throttle.ts';

/** Email verification: the link registration mails; following it proves the mailbox (and may make an admin, see ADMIN_EMAILS). */
export function createVerifyEmailFlow({ csrf, site, log, publicOrigin, throttle, accounts, admins, background }: RealmContext, mailLink: MailLink) {
  const { emailProven } = admins;
  const inBackground = background.run;
  async function sendVerificationMail(account: AccountRecord) {
    const hours = EMAIL_VERIFICATION_TTL_SECONDS / 3600;
    await mailLink(account, { kind: VERIFY_TOKEN_KIND, path: VERIFY_EMAIL_PATH, ttlSeconds: EMAIL_VERIFICATION_TTL_SECONDS, interactionUid: null }, (link) => ({
      subject: 'Confirm your email address for Forum',
      text: `Hello ${account.name},\n\nWelcome to Forum! Please confirm that ${account.email} is your email address by opening this link:\n${link}\n\nThe link works once, for ${hours} hours. If you did not create a Forum account, ignore this mail: nothing happens.\n`,
      html: `<p>Hello ${escapeHtml(account.name)},</p><p>Welcome to Forum! Please confirm that ${escapeHtml(account.email)} is your email address.</p><p><a href="${escapeHtml(link)}">Confirm my email address</a> (the link works once, for ${hours} hours).</p><p>If you did not create a Forum account, ignore this mail: nothing happens.</p>`,
    }));
    log.info({ accountId: account.id }, 'email verification mail sent');
  }

  const confirmedPage = (email: string) =>
    messagePage({
      title: 'Your email address is confirmed',
      message: `Thank you: ${email} is confirmed as the address of your account.`,
      link: { href: `${publicOrigin}/`, label: 'Back to the forum' },
      site,
    });
  const invalidVerificationPage = () =>
    messagePage({
      title: 'This link is not valid',
      message: 'This link to confirm an email address is not valid. Check that you opened the whole link from the mail.',
      status: 400,
      site,
    });

  async function verifyEmail(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method === 'POST') return resendVerification(req, res);
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET, POST');
    const key = (query.get('key') ?? '').slice(0, 128);
    const used = await accounts.useActionToken(VERIFY_TOKEN_KIND, key, (accountId, trx) => accounts.markEmailVerified(accountId, trx));
    if (used.status === 'unknown') return sendPage(res, invalidVerificationPage());
    const record = used.status === 'valid' ? await emailProven(used.accountId) : await accounts.findById(used.accountId);
    if (!record) return sendPage(res, invalidVerificationPage());
    if (used.status === 'valid') log.info({ accountId: record.id }, 'email verified');
    // a link used already (a mail scanner may open links first) or expired after the address was confirmed: say so
    if (record.emailVerified) return sendPage(res, confirmedPage(record.email));
    sendPage(
      res,
      messagePage({
        title: 'This link has expired',
        message: `Links to confirm your email address work for ${EMAIL_VERIFICATION_TTL_SECONDS / 3600} hours. We can send you a new one.`,
        form: { action: `${REALM_PATH}${VERIFY_EMAIL_PATH}`, fields: { csrf: csrf.issue(req, res, 'verify'), key }, button: 'Send a new link' },
        status: 410,
        site,
      }),
    );
  }

  async function resendVerification(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    const key = (form?.get('key') ?? '').slice(0, 128);
    if (!form || !csrf.valid(req, 'verify', form.get('csrf'))) {
      sendPage(res, messagePage({ title: 'Your session has expired', message: 'Open the link from the mail again.', status: 403, site }));
      return;
    }
    const state = await accounts.inspectActionToken(VERIFY_TOKEN_KIND, key);
    const record = state.status === 'unknown' ? null : await accounts.findById(state.accountId);
    if (!record) return sendPage(res, invalidVerificationPage());
    if (record.emailVerified) return sendPage(res, confirmedPage(record.email));
    const wait = await throttle.verificationMailRequested(record.email);
    if (wait) {
      sendPage(res, messagePage({ title: 'Please wait a little', message: tooManyRequestsMessage(wait), status: 429, site }));
      return;
    }
    inBackground(() => sendVerificationMail(record));
    sendPage(
      res,
      resetRequestedPage({ lines: [`We sent a new link to ${record.email}. It works once, for ${EMAIL_VERIFICATION_TTL_SECONDS / 3600} hours.`], site }),
    );
  }

  return { verifyEmail, sendVerificationMail };
}
