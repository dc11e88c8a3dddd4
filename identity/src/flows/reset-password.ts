import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { PASSWORD_MISMATCH_MESSAGE, passwordProblem } from '@forum/contracts';
import { clientAddress } from '@forum/platform';
import type { RealmContext } from '../context.ts';
import { methodNotAllowed, readForm, redirect, sendPage } from '../http.ts';
import { RESET_TOKEN_KIND, RESET_TOKEN_TTL_SECONDS } from '../one-time-link.ts';
import { messagePage, resetPasswordPage } from '../pages/index.ts';
import { ACTION_TOKEN_PATH, forgotUrl, loginUrl, REALM_PATH } from '../paths.ts';

/** What a refused form's page shows after the redirect (flash.ts). */
type ResetFlash =
  { errors: Partial<Record<'password' | 'password-confirm', string>>; error?: string; status?: number } | { updated: { pending: string | null } };

/** The mailed reset link's page: a new password, once; the link proves the mailbox. */
export function createResetPasswordFlow({ csrf, site, flash, log, publicOrigin, trustProxy, backoff, accounts, admins }: RealmContext, provider: Provider) {
  const { emailProven } = admins;
  function refusedLinkPage(res: ServerResponse, status: 'used' | 'expired' | 'unknown') {
    const text = {
      used: {
        title: 'This link was already used',
        message: 'This password reset link has already been used. Request a new one if you still need to reset your password.',
        code: 410,
      },
      expired: {
        title: 'This link has expired',
        message: `Password reset links work for ${RESET_TOKEN_TTL_SECONDS / 60} minutes. Request a new one.`,
        code: 410,
      },
      unknown: { title: 'This link is not valid', message: 'This password reset link is not valid. Request a new one.', code: 400 },
    }[status];
    sendPage(res, messagePage({ title: text.title, message: text.message, status: text.code, link: { href: forgotUrl(), label: 'Request a new link' }, site }));
  }

  /** Where a reset ends; `pending`: the sign-in that was under way when the link was asked for, if it still is. */
  const passwordUpdatedPage = (pending: string | null) =>
    messagePage({
      title: 'Your password has been updated',
      message: 'You can now sign in with your new password.',
      link: pending ? { href: loginUrl(pending), label: 'Sign in' } : { href: `${publicOrigin}/`, label: 'Back to the forum' },
      site,
    });

  async function resetPassword(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const form = req.method === 'POST' ? await readForm(req) : null;
    const key = (form?.get('key') ?? query.get('key') ?? '').slice(0, 128);
    const flashKey = `reset:${key}`;
    // the outcome of this link's form, once (it may have used the link: shown before the link is checked)
    const shown = req.method === 'GET' && key ? await flash.take<ResetFlash>(flashKey) : null;
    if (shown && 'updated' in shown) return sendPage(res, passwordUpdatedPage(shown.updated.pending));
    const state = await accounts.inspectActionToken(RESET_TOKEN_KIND, key);
    if (state.status !== 'valid') return refusedLinkPage(res, state.status);
    const account = await accounts.findById(state.accountId);
    if (!account) return refusedLinkPage(res, 'unknown');
    const view = (errors: Partial<Record<'password' | 'password-confirm', string>>, error?: string, status?: number) =>
      resetPasswordPage({
        action: `${REALM_PATH}${ACTION_TOKEN_PATH}`,
        csrf: csrf.issue(req, res, 'reset'),
        key,
        email: account.email,
        errors,
        error,
        status,
        site,
      });
    if (req.method === 'GET') {
      sendPage(res, shown ? view(shown.errors, shown.error, shown.status) : view({}));
      return;
    }
    /** Post-redirect-get: the link's page shows the outcome once (never the passwords). */
    const answer = async (outcome: ResetFlash) => {
      await flash.put<ResetFlash>(flashKey, outcome);
      redirect(res, `${REALM_PATH}${ACTION_TOKEN_PATH}?key=${encodeURIComponent(key)}`);
    };
    if (!form || !csrf.valid(req, 'reset', form.get('csrf'))) return answer({ errors: {}, error: 'Your session has expired. Please try again.', status: 403 });
    const password = form.get('password') ?? '';
    const problem = passwordProblem(password);
    if (problem || password !== (form.get('password-confirm') ?? '')) {
      return answer({ errors: problem ? { password: problem } : { 'password-confirm': PASSWORD_MISMATCH_MESSAGE }, status: 400 });
    }
    const used = await accounts.useActionToken(RESET_TOKEN_KIND, key, async (accountId, trx) => {
      await accounts.setPassword(accountId, password, trx);
      await accounts.markEmailVerified(accountId, trx); // the link came through the mailbox (Keycloak does the same)
    });
    if (used.status !== 'valid') return refusedLinkPage(res, used.status);
    await emailProven(account.id);
    await backoff.proven(account.email, clientAddress(req, trustProxy)); // the owner of the mailbox is at this address
    log.info({ accountId: account.id }, 'password reset');
    const pending = used.interactionUid && (await provider.Interaction.find(used.interactionUid)) ? used.interactionUid : null;
    await answer({ updated: { pending } });
  }

  return resetPassword;
}
