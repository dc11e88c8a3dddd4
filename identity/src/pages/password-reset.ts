import { PASSWORD_RULES_HINT } from '@forum/contracts';
import { escapeHtml, type JoinLinks, type Page, renderPage, type Site } from './layout.ts';
import { alert, field, notice } from './form-parts.ts';
import { PASSWORD_CHECK, PASSWORD_TOGGLE } from './password-script.ts';

export interface ForgotView {
  action: string;
  csrf: string;
  email: string;
  interaction?: string;
  error?: string;
  status?: number;
  loginUrl?: string;
  site: Site;
  join?: JoinLinks;
}

export function forgotPasswordPage(view: ForgotView): Page {
  const body = `<h1>Forgot your password?</h1>
<p class="muted">Enter the email of your account and we will send you a link to choose a new password.</p>
${alert(view.error)}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
${view.interaction ? `<input type="hidden" name="interaction" value="${escapeHtml(view.interaction)}">` : ''}
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus maxlength="254" value="${escapeHtml(view.email)}">
</div>
<button type="submit" class="primary">Send reset link</button>
</form>
${view.loginUrl ? `<p class="footer"><a href="${escapeHtml(view.loginUrl)}">Back to sign in</a></p>` : ''}`;
  return renderPage({ title: 'Forgot password', body, status: view.status ?? 200, site: view.site, join: view.join });
}

export function resetRequestedPage(options: { lines: readonly string[]; loginUrl?: string; site: Site }): Page {
  const body = `<h1>Check your email</h1>
${notice(options.lines)}
${options.loginUrl ? `<p class="footer"><a href="${escapeHtml(options.loginUrl)}">Back to sign in</a></p>` : ''}`;
  return renderPage({ title: 'Check your email', body, site: options.site });
}

export interface ResetView {
  action: string;
  csrf: string;
  key: string;
  email: string;
  errors: Partial<Record<'password' | 'password-confirm', string>>;
  error?: string;
  status?: number;
  site: Site;
}

export function resetPasswordPage(view: ResetView): Page {
  const body = `<h1>Choose a new password</h1>
<p class="muted">For ${escapeHtml(view.email)}</p>
${alert(view.error)}
<form method="post" action="${escapeHtml(view.action)}" data-validate="password">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="key" value="${escapeHtml(view.key)}">
<input type="email" name="email" autocomplete="username" value="${escapeHtml(view.email)}" hidden>
${field({ id: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', error: view.errors.password, help: PASSWORD_RULES_HINT, toggle: true, autofocus: !view.errors['password-confirm'] })}
${field({ id: 'password-confirm', label: 'Confirm password', type: 'password', autocomplete: 'new-password', error: view.errors['password-confirm'], autofocus: !!view.errors['password-confirm'] })}
<button type="submit" class="primary">Set password</button>
</form>`;
  return renderPage({
    title: 'Reset password',
    body,
    script: `${PASSWORD_TOGGLE}\n${PASSWORD_CHECK}`,
    status: view.status ?? 200,
    site: view.site,
  });
}
