import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPhotoUrl, checkText, isEmail, normalizeEmail, PASSWORD_MISMATCH_MESSAGE, passwordProblem } from '@forum/contracts';
import { clientAddress, ConflictError } from '@forum/platform';
import type { RealmContext } from '../context.ts';
import { methodNotAllowed, readForm, redirect, sendPage } from '../http.ts';
import type { Interactions } from '../interaction.ts';
import { DUPLICATE_EMAIL_MESSAGE } from '../messages.ts';
import { type RegisterField, registerPage } from '../pages/index.ts';
import { loginUrl, OIDC, REALM_PATH, registerUrl } from '../paths.ts';
import { ACCOUNT_NAME, handleProblem, type AccountRecord } from '../store.ts';
import { tooManyRequestsMessage } from '../throttle.ts';

/** What a refused form's page shows after the redirect (flash.ts). */
type RegisterFlash = {
  values: { name: string; handle: string; photo: string; email: string };
  errors: Partial<Record<RegisterField, string>>;
  error?: string;
  status?: number;
};

/** The register page (keycloak-js register(), the login page's Register link): a new account signs in at once and gets a mail to confirm its address. */
export function createRegistrationFlow(
  { csrf, site, flash, log, publicOrigin, trustProxy, throttle, backoff, accounts, admins, background }: RealmContext,
  { googleButton, pendingLogin, signIn }: Interactions,
  sendVerificationMail: (account: AccountRecord) => Promise<void>,
) {
  const { createAccount } = admins;
  const inBackground = background.run;
  async function register(req: IncomingMessage, res: ServerResponse, uid: string) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const details = await pendingLogin(req, res, uid);
    if (!details) return;
    const view = (
      values: { name: string; handle: string; photo: string; email: string },
      errors: Partial<Record<RegisterField, string>> = {},
      error?: string,
      status?: number,
    ) =>
      registerPage({
        action: registerUrl(uid),
        csrf: csrf.forInteraction('register', uid),
        values,
        errors,
        error,
        status,
        loginUrl: loginUrl(uid),
        google: googleButton(uid),
        site,
      });

    const flashKey = `register:${uid}`;
    if (req.method === 'GET') {
      const refused = await flash.take<RegisterFlash>(flashKey);
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, 254) : '';
      sendPage(res, refused ? view(refused.values, refused.errors, refused.error, refused.status) : view({ name: '', handle: '', photo: '', email: hint }));
      return;
    }

    const form = await readForm(req);
    // the forum's text policy (contracts): what it keeps is what the account stores
    const name = checkText(form?.get('name') ?? '', { ...ACCOUNT_NAME, required: 'Name is required.' });
    const photo = checkPhotoUrl(form?.get('photo') ?? '', publicOrigin, { required: 'Photo URL is required.' });
    const typed = (field: string) =>
      Array.from((form?.get(field) ?? '').trim())
        .slice(0, 4096)
        .join('');
    const values = {
      name: name.ok ? name.value : typed('name'),
      handle: typed('handle'),
      photo: photo.ok ? photo.value : typed('photo'),
      email: normalizeEmail(form?.get('email') ?? ''),
    };
    /** Post-redirect-get: the page shows the refusal once, with what was typed (never the passwords). */
    const refuse = async (errors: Partial<Record<RegisterField, string>>, error?: string, status?: number) => {
      await flash.put<RegisterFlash>(flashKey, { values, errors, error, status });
      redirect(res, registerUrl(uid));
    };
    if (!form || !csrf.validForInteraction('register', uid, form.get('csrf'))) return refuse({}, 'Your session has expired. Please try again.', 403);
    const password = form.get('password') ?? '';
    const confirm = form.get('password-confirm') ?? '';
    const errors: Partial<Record<RegisterField, string>> = {};
    if (!name.ok) errors.name = name.message;
    const handle = handleProblem(values.handle);
    if (handle) errors.handle = handle;
    if (!photo.ok) errors.photo = photo.message;
    if (!values.email) errors.email = 'Email is required.';
    else if (!isEmail(values.email)) errors.email = 'Enter a valid email address.';
    const problem = passwordProblem(password);
    if (problem) errors.password = problem;
    else if (password !== confirm) errors['password-confirm'] = PASSWORD_MISMATCH_MESSAGE;
    if (Object.keys(errors).length > 0) return refuse(errors, undefined, 400);

    const address = clientAddress(req, trustProxy);
    const wait = await throttle.registrationAttempted(address);
    if (wait) return refuse({}, tooManyRequestsMessage(wait), 429);
    let id: string;
    try {
      ({ id } = await createAccount({ email: values.email, password, name: values.name, handle: values.handle, picture: values.photo }));
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return refuse({ email: DUPLICATE_EMAIL_MESSAGE }, undefined, 409);
    }
    await backoff.proven(values.email, address);
    const record = (await accounts.findById(id))!;
    log.info({ clientId: details.params.client_id, accountId: id }, 'account registered');
    inBackground(() => sendVerificationMail(record));
    await signIn(req, res, details, record, 'registration', ['pwd'], true);
  }

  /** keycloak-js register(): the usual authorization request on another path; the pending sign-in starts on the register page. */
  function registrations(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    query.delete('forum_screen');
    query.set('forum_screen', 'register');
    redirect(res, `${REALM_PATH}${OIDC}/auth?${query.toString()}`);
  }

  return { register, registrations };
}
