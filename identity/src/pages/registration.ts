import { HANDLE_MAX, HANDLE_MIN, PASSWORD_RULES_HINT } from '@forum/contracts';
import { escapeHtml, type Page, renderPage, type Site } from './layout.ts';
import { alert, field, googleButton, type GoogleButton } from './form-parts.ts';
import { PASSWORD_CHECK, PASSWORD_TOGGLE } from './password-script.ts';

export type RegisterField = 'name' | 'handle' | 'photo' | 'email' | 'password' | 'password-confirm';

export interface RegisterView {
  action: string;
  csrf: string;
  values: { name: string; handle: string; photo: string; email: string };
  errors: Partial<Record<RegisterField, string>>;
  error?: string;
  loginUrl: string;
  google: GoogleButton;
  status?: number;
  site: Site;
}

const PHOTO_HELP = 'The https:// address of a picture of you.';
const HANDLE_HELP = `Optional: the name others @mention you by, ${HANDLE_MIN} to ${HANDLE_MAX} letters a-z, digits and _ (with . or - between them). Leave it empty to get one from your name.`;

export function registerPage(view: RegisterView): Page {
  const firstError = (['name', 'handle', 'photo', 'email', 'password', 'password-confirm'] as const).find((f) => view.errors[f]);
  const body = `<h1>Create your account</h1>
${alert(view.error)}
<form method="post" action="${escapeHtml(view.action)}" data-validate="password">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
${field({ id: 'name', label: 'Name', type: 'text', autocomplete: 'name', value: view.values.name, error: view.errors.name, maxlength: 100, autofocus: !firstError || firstError === 'name' })}
${field({ id: 'handle', label: 'Handle', type: 'text', autocomplete: 'nickname', value: view.values.handle, error: view.errors.handle, help: HANDLE_HELP, maxlength: HANDLE_MAX, optional: true, autofocus: firstError === 'handle' })}
${field({ id: 'photo', label: 'Photo URL', type: 'url', autocomplete: 'photo', value: view.values.photo, error: view.errors.photo, help: PHOTO_HELP, maxlength: 2048, autofocus: firstError === 'photo' })}
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: view.values.email, error: view.errors.email, maxlength: 254, autofocus: firstError === 'email' })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: view.errors.password, help: PASSWORD_RULES_HINT, toggle: true, autofocus: firstError === 'password' })}
${field({ id: 'password-confirm', label: 'Confirm password', type: 'password', autocomplete: 'new-password', error: view.errors['password-confirm'], autofocus: firstError === 'password-confirm' })}
<button type="submit" class="primary">Register</button>
</form>
${googleButton(view.google)}
<p class="footer">Already have an account? <a href="${escapeHtml(view.loginUrl)}">Sign in</a></p>`;
  return renderPage({
    title: 'Register',
    body,
    script: `${PASSWORD_TOGGLE}\n${PASSWORD_CHECK}`,
    status: view.status ?? 200,
    site: view.site,
    join: { login: view.loginUrl, register: view.action, current: 'register' },
  });
}
