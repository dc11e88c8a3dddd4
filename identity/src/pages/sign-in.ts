import { escapeHtml, type Page, renderPage, type Site } from './layout.ts';
import { alert, googleButton, type GoogleButton, notice } from './form-parts.ts';
import { PASSWORD_CHECK, PASSWORD_TOGGLE } from './password-script.ts';

export interface LoginView {
  action: string;
  csrf: string;
  email: string;
  error?: string;
  info?: string[];
  registerUrl: string;
  resetUrl: string;
  google: GoogleButton;
  status?: number;
  site: Site;
}

export function loginPage(view: LoginView): Page {
  const body = `<h1>Sign in to your account</h1>
${notice(view.info)}
${alert(view.error)}
<form method="post" action="${escapeHtml(view.action)}" data-validate="password">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required${view.email ? '' : ' autofocus'} value="${escapeHtml(view.email)}">
</div>
<div class="field">
<label for="password">Password</label>
<div class="password">
<input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="password-error"${view.email ? ' autofocus' : ''}>
<button type="button" class="toggle" id="toggle-password" data-toggle="password" aria-controls="password" aria-pressed="false" aria-label="Show password" hidden>Show</button>
</div>
<p class="field-error" id="password-error" hidden></p>
</div>
<div class="row"><a href="${escapeHtml(view.resetUrl)}">Forgot password?</a></div>
<button type="submit" class="primary">Sign in</button>
</form>
${googleButton(view.google)}
<p class="footer">New to Forum? <a href="${escapeHtml(view.registerUrl)}">Register</a></p>`;
  return renderPage({
    title: 'Sign in',
    body,
    script: `${PASSWORD_TOGGLE}\n${PASSWORD_CHECK}`,
    status: view.status ?? 200,
    site: view.site,
    join: { login: view.action, register: view.registerUrl, current: 'login' },
  });
}
