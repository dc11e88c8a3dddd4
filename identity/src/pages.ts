import { createHash } from 'node:crypto';
import { BRAND, PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULES, PASSWORD_SPECIALS, passwordProblem } from '@forum/contracts';

/** Server-rendered pages of the realm: plain HTML, one inline style and script, no external assets. */

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `*{box-sizing:border-box}
html{color-scheme:light}
:root{--brand:${BRAND.primary};--brand-dark:color-mix(in srgb,var(--brand) 78%,#000);--brand-tint:color-mix(in srgb,var(--brand) 10%,#fff)}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:${BRAND.background};color:#1f2937;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.topbar{background:var(--brand);color:#fff;box-shadow:0 2px 4px rgba(0,0,0,.12)}
.topbar nav{display:flex;align-items:center;gap:4px;max-width:1200px;min-height:56px;margin:0 auto;padding:8px 16px}
.topbar a{display:inline-flex;align-items:center;color:#fff;text-decoration:none;border-radius:10px}
.topbar a:hover{text-decoration:none;background:rgba(255,255,255,.14)}
.topbar a:focus-visible{outline:2px solid #fff;outline-offset:2px}
.topbar .brand{gap:8px;margin-right:auto;padding:4px 8px 4px 0;font-size:1.25rem;font-weight:800;letter-spacing:-.01em}
.topbar .brand:hover{background:none}
.topbar .brand svg{width:24px;height:24px;fill:currentColor}
.topbar .join{padding:6px 12px;font-weight:600;opacity:.9}
.topbar .join[aria-current=page]{opacity:1;background:rgba(255,255,255,.16)}
.content{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px 16px}
.card{width:100%;max-width:400px;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08),0 8px 24px rgba(0,0,0,.06);padding:32px}
h1{margin:0 0 20px;font-size:1.25rem;font-weight:600}
p{margin:0 0 16px}
label{display:block;margin:0 0 6px;font-size:.875rem;font-weight:600}
.field{margin-bottom:16px}
input[type=email],input[type=password],input[type=text],input[type=url]{width:100%;padding:10px 12px;font:inherit;color:inherit;background:#fff;border:1px solid #cbd5e1;border-radius:8px}
input:focus{outline:2px solid var(--brand);outline-offset:1px;border-color:var(--brand)}
.password{position:relative}
.password input{padding-right:72px}
.toggle{position:absolute;right:6px;top:50%;transform:translateY(-50%);padding:6px 8px;border:0;border-radius:6px;background:none;color:var(--brand);font-family:inherit;font-size:.8125rem;font-weight:600;line-height:1;cursor:pointer}
.toggle:hover{background:var(--brand-tint)}
.row{display:flex;justify-content:flex-end;margin:-4px 0 16px;font-size:.875rem}
.primary{display:block;width:100%;padding:12px;border:0;border-radius:8px;background:var(--brand);color:#fff;font-family:inherit;font-size:1rem;font-weight:600;line-height:1.2;text-align:center;cursor:pointer}
.primary:hover{background:var(--brand-dark)}
.alert{margin-bottom:16px;padding:12px;border:1px solid #f5c2c0;border-radius:8px;background:#fdecea;color:#b71c1c;font-size:.9375rem}
.muted{color:#4b5563;font-size:.9375rem}
.footer{margin:20px 0 0;text-align:center;color:#4b5563;font-size:.9375rem}
a{color:var(--brand);text-decoration:none}
a:hover{text-decoration:underline}
main p a,main pre a{text-decoration:underline;text-underline-offset:.15em}
input[aria-invalid=true]{border-color:#d32f2f}
.field-error{margin:6px 0 0;color:#b71c1c;font-size:.875rem}
.notice{margin-bottom:16px;padding:12px;border:1px solid #b7dfb9;border-radius:8px;background:#edf7ee;color:#1b5e20;font-size:.9375rem}
.notice p{margin:0}
.notice p+p{margin-top:8px}
.divider{display:flex;align-items:center;gap:12px;margin:20px 0;color:#6b7280;font-size:.875rem}
.divider::before,.divider::after{content:"";flex:1;height:1px;background:#e5e7eb}
.social{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;padding:11px 12px;border:1px solid #cbd5e1;border-radius:8px;background:#fff;color:#1f2937;font-family:inherit;font-size:1rem;font-weight:600;line-height:1.2;cursor:pointer}
a.social:hover{background:#f8fafc;text-decoration:none}
.social:disabled{opacity:.55;cursor:not-allowed}
.card.wide{max-width:760px}
.dev{margin-bottom:16px;padding:12px;border:1px solid #f3d37a;border-radius:8px;background:#fff8e1;color:#6d4c00;font-size:.9375rem}
.mail{padding:16px 0;border-top:1px solid #e5e7eb}
.mail h2{margin:0 0 4px;font-size:1rem;font-weight:600}
.mail .meta{color:#4b5563;font-size:.875rem}
.mail pre{margin:8px 0 0;white-space:pre-wrap;word-break:break-word;font:inherit;font-size:.9375rem}`;

/** Show/hide buttons next to password inputs (`data-toggle` names the input). */
const PASSWORD_TOGGLE = `(function(){var bs=document.querySelectorAll('button[data-toggle]');for(var i=0;i<bs.length;i++)(function(b){var p=document.getElementById(b.getAttribute('data-toggle'));if(!p)return;b.hidden=false;b.addEventListener('click',function(){var show=p.type==='password';p.type=show?'text':'password';b.textContent=show?'Hide':'Show';b.setAttribute('aria-pressed',String(show));b.setAttribute('aria-label',show?'Hide password':'Show password');p.focus();});})(bs[i]);})();`;

/** `<` cannot end a script element when escaped. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The password rules of contracts (spec §5), for the page: their own test functions and
 * messages, serialised. Used only when the serialised copy agrees with passwordProblem on a
 * set of samples (a build that rewrites functions, e.g. coverage, would break it): otherwise
 * the page leaves the rules to the server, which checks them anyway.
 */
function clientPasswordRules(): string | null {
  try {
    const source = `[${PASSWORD_RULES.map((rule) => `[${rule.test.toString()},${scriptJson(rule.message)}]`).join(',')}]`;
    const rules = new Function('PASSWORD_SPECIALS', `"use strict";return ${source};`)(PASSWORD_SPECIALS) as Array<[(p: string) => boolean, string]>;
    const samples = ['', 'a', 'abcdefgh', 'ABCDEFGH', 'Abcdefgh', 'Abcdefg!', 'abcdefg!', 'ABCDEFG!', 'Ab!', 'Forum#2026', 'Pass word-1', 'Ünïcödé!X', `Aa${PASSWORD_SPECIALS}`];
    for (const sample of samples) {
      const expected = passwordProblem(sample);
      const actual = rules.find(([test]) => !test(sample))?.[1] ?? null;
      if (actual !== expected) return null;
    }
    return source;
  } catch {
    return null;
  }
}

const CLIENT_RULES = clientPasswordRules();

/** Inline checks of `form[data-validate]`: the password rules in order, then the confirmation. */
const PASSWORD_CHECK = `(function(){var PASSWORD_SPECIALS=${scriptJson(PASSWORD_SPECIALS)};var RULES=${CLIENT_RULES ?? '[]'};var MISMATCH=${scriptJson(PASSWORD_MISMATCH_MESSAGE)};
var f=document.querySelector('form[data-validate]');if(!f)return;var p=document.getElementById('password'),c=document.getElementById('password-confirm');if(!p||!c)return;
var pe=document.getElementById('password-error'),ce=document.getElementById('password-confirm-error'),touched=false;
function show(input,el,msg){el.textContent=msg||'';el.hidden=!msg;if(msg)input.setAttribute('aria-invalid','true');else input.removeAttribute('aria-invalid');}
function rule(v){for(var i=0;i<RULES.length;i++){if(!RULES[i][0](v))return RULES[i][1];}return null;}
function check(all){var m=rule(p.value);show(p,pe,m);var mm=!m&&(all||c.value)&&c.value!==p.value?MISMATCH:null;show(c,ce,mm);return !m&&!mm;}
f.addEventListener('submit',function(e){touched=true;if(!check(true)){e.preventDefault();(pe.hidden?c:p).focus();}});
p.addEventListener('blur',function(){if(p.value){touched=true;check(false);}});
p.addEventListener('input',function(){if(touched)check(false);});
c.addEventListener('input',function(){if(touched||!ce.hidden)check(false);});
})();`;

const AUTO_SUBMIT = `document.getElementById('op.logoutForm').submit();`;

function sha256(text: string) {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

export interface Page {
  status: number;
  html: string;
  csp: string;
}

/**
 * What every page of the realm shares: the origins its forms may post to, and the header's links
 * (spec §2: a brand link to the forum and Login and Register).
 */
export interface Site {
  /** Origins a form may submit (or be redirected) to, besides 'self'. */
  formTargets: readonly string[];
  /** The forum's home page (the brand link). */
  home: string;
  /** Where Login and Register go when no sign-in is under way: the forum's join pages, which start one. */
  login: string;
  register: string;
}

/** The header's Login and Register on a page of a sign-in under way: that sign-in's own pages (maybe this one). */
export interface JoinLinks {
  login: string;
  register: string;
  current?: 'login' | 'register';
}

const FORUM_MARK = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M15 4v7H5.17L4 12.17V4zm1-2H3c-.55 0-1 .45-1 1v14l4-4h10c.55 0 1-.45 1-1V3c0-.55-.45-1-1-1m5 4h-2v9H6v2c0 .55.45 1 1 1h11l4 4V7c0-.55-.45-1-1-1"/></svg>`;

function header(site: Site, join: JoinLinks | undefined): string {
  const link = (which: 'login' | 'register', label: string) =>
    `<a class="join" href="${escapeHtml(join?.[which] ?? site[which])}"${join?.current === which ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<header class="topbar">
<nav aria-label="${escapeHtml(BRAND.name)}">
<a class="brand" href="${escapeHtml(site.home)}">${FORUM_MARK}<span>${escapeHtml(BRAND.name)}</span></a>
${link('login', 'Login')}
${link('register', 'Register')}
</nav>
</header>`;
}

interface PageOptions {
  title: string;
  body: string;
  script?: string;
  status?: number;
  site: Site;
  join?: JoinLinks;
  wide?: boolean;
}

export function renderPage({ title, body, script, status = 200, site, join, wide = false }: PageOptions): Page {
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${escapeHtml(BRAND.name)}</title>
<style>${STYLE}</style>
</head>
<body>
${header(site, join)}
<div class="content">
<main class="card${wide ? ' wide' : ''}">
${body}
</main>
</div>
${script ? `<script>${script}</script>` : ''}
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    `script-src ${script ? sha256(script) : "'none'"}`,
    "img-src 'self' data:",
    `form-action 'self' ${site.formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { status, html, csp };
}

/** 'Continue with Google': a link when configured, else a disabled button that says why. */
export type GoogleButton = { href: string } | { unavailable: string };

const GOOGLE_MARK = `<svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><path fill="#EA4335" d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"/><path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"/><path fill="#FBBC05" d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"/><path fill="#34A853" d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"/></svg>`;

function googleButton(button: GoogleButton): string {
  const label = `${GOOGLE_MARK}<span>Continue with Google</span>`;
  const inner =
    'href' in button
      ? `<a class="social" id="social-google" href="${escapeHtml(button.href)}">${label}</a>`
      : `<button type="button" class="social" id="social-google" disabled title="${escapeHtml(button.unavailable)}">${label}</button>`;
  return `<div class="divider">or</div>\n${inner}`;
}

function alert(message: string | undefined): string {
  return message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : '';
}

function notice(lines: readonly string[] | undefined): string {
  return lines?.length ? `<div class="notice" role="status">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>` : '';
}

/** One labelled input with its inline error (the element is always there, for the page's own checks). */
function field(options: {
  id: string;
  label: string;
  type: 'text' | 'email' | 'url' | 'password';
  autocomplete: string;
  value?: string;
  error?: string;
  autofocus?: boolean;
  toggle?: boolean;
  maxlength?: number;
}): string {
  const errorId = `${options.id}-error`;
  const attributes = [
    `id="${options.id}"`,
    `name="${options.id}"`,
    `type="${options.type}"`,
    `autocomplete="${options.autocomplete}"`,
    'required',
    `aria-describedby="${errorId}"`,
    ...(options.maxlength ? [`maxlength="${options.maxlength}"`] : []),
    ...(options.error ? ['aria-invalid="true"'] : []),
    ...(options.autofocus ? ['autofocus'] : []),
    ...(options.value !== undefined ? [`value="${escapeHtml(options.value)}"`] : []),
  ].join(' ');
  const input = `<input ${attributes}>`;
  const control = options.toggle
    ? `<div class="password">
${input}
<button type="button" class="toggle" id="toggle-${options.id}" data-toggle="${options.id}" aria-controls="${options.id}" aria-pressed="false" aria-label="Show password" hidden>Show</button>
</div>`
    : input;
  return `<div class="field">
<label for="${options.id}">${escapeHtml(options.label)}</label>
${control}
<p class="field-error" id="${errorId}"${options.error ? '' : ' hidden'}>${escapeHtml(options.error ?? '')}</p>
</div>`;
}

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
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required${view.email ? '' : ' autofocus'} value="${escapeHtml(view.email)}">
</div>
<div class="field">
<label for="password">Password</label>
<div class="password">
<input id="password" name="password" type="password" autocomplete="current-password" required${view.email ? ' autofocus' : ''}>
<button type="button" class="toggle" id="toggle-password" data-toggle="password" aria-controls="password" aria-pressed="false" aria-label="Show password" hidden>Show</button>
</div>
</div>
<div class="row"><a href="${escapeHtml(view.resetUrl)}">Forgot password?</a></div>
<button type="submit" class="primary">Sign in</button>
</form>
${googleButton(view.google)}
<p class="footer">New to Forum? <a href="${escapeHtml(view.registerUrl)}">Register</a></p>`;
  return renderPage({
    title: 'Sign in',
    body,
    script: PASSWORD_TOGGLE,
    status: view.status ?? 200,
    site: view.site,
    join: { login: view.action, register: view.registerUrl, current: 'login' },
  });
}

export type RegisterField = 'name' | 'photo' | 'email' | 'password' | 'password-confirm';

export interface RegisterView {
  action: string;
  csrf: string;
  values: { name: string; photo: string; email: string };
  errors: Partial<Record<RegisterField, string>>;
  error?: string;
  loginUrl: string;
  google: GoogleButton;
  status?: number;
  site: Site;
}

export function registerPage(view: RegisterView): Page {
  const firstError = (['name', 'photo', 'email', 'password', 'password-confirm'] as const).find((f) => view.errors[f]);
  const body = `<h1>Create your account</h1>
${alert(view.error)}
<form method="post" action="${escapeHtml(view.action)}" data-validate="password">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
${field({ id: 'name', label: 'Name', type: 'text', autocomplete: 'name', value: view.values.name, error: view.errors.name, maxlength: 100, autofocus: !firstError || firstError === 'name' })}
${field({ id: 'photo', label: 'Photo URL', type: 'url', autocomplete: 'photo', value: view.values.photo, error: view.errors.photo, maxlength: 2048, autofocus: firstError === 'photo' })}
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: view.values.email, error: view.errors.email, maxlength: 254, autofocus: firstError === 'email' })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: view.errors.password, toggle: true, autofocus: firstError === 'password' })}
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
${field({ id: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', error: view.errors.password, toggle: true, autofocus: !view.errors['password-confirm'] })}
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

export interface MailboxEntry {
  recipient: string;
  subject: string;
  body: string;
  createdAt: Date;
}

/** Text with its http(s) URLs as links (everything escaped). */
function linkify(text: string): string {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g);
  return parts.map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part))).join('');
}

export function mailboxPage(mails: readonly MailboxEntry[], site: Site): Page {
  const list = mails.length
    ? mails
        .map(
          (mail) => `<article class="mail">
<h2>${escapeHtml(mail.subject)}</h2>
<div class="meta">To ${escapeHtml(mail.recipient)} · <time datetime="${mail.createdAt.toISOString()}">${escapeHtml(mail.createdAt.toISOString().replace('T', ' ').slice(0, 19))} UTC</time></div>
<pre>${linkify(mail.body)}</pre>
</article>`,
        )
        .join('\n')
    : '<p class="muted">No mail yet.</p>';
  const body = `<h1>Mailbox</h1>
<div class="dev" role="note"><strong>For development only.</strong> No mail server is configured (SMTP_URL is not set), so the mails the realm would send are kept here instead, newest first. Set SMTP_URL to send real mail; this page then goes away.</div>
${list}`;
  return renderPage({ title: 'Mailbox', body, site, wide: true });
}

/** A title and a message, maybe one button that posts a small form, maybe a link on. */
export function messagePage(options: {
  title: string;
  message: string;
  status?: number;
  link?: { href: string; label: string };
  /** One button that posts a small form (hidden fields), e.g. 'Send a new link'. */
  form?: { action: string; fields: Readonly<Record<string, string>>; button: string };
  site: Site;
}): Page {
  const { form } = options;
  const hidden = Object.entries(form?.fields ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const button = form
    ? `<form method="post" action="${escapeHtml(form.action)}">
${hidden}
<button type="submit" class="primary">${escapeHtml(form.button)}</button>
</form>
`
    : '';
  const body = `<h1>${escapeHtml(options.title)}</h1>
<p class="muted">${escapeHtml(options.message)}</p>
${button}${options.link ? `<p class="footer"><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.label)}</a></p>` : ''}`;
  return renderPage({ title: options.title, body, status: options.status ?? 200, site: options.site });
}

/**
 * oidc-provider's logout form, submitted at once: only for a request that carries the id_token_hint
 * of the session's own sign-in (keycloak-js sends it; Keycloak then signs out without asking).
 * `logout=yes` ends the whole session, not just the one client.
 */
export function logoutPage(form: string, site: Site): Page {
  const withLogout = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  const body = `<h1>Signing you out…</h1>
${withLogout}
<noscript><button type="submit" class="primary" form="op.logoutForm">Sign out</button></noscript>`;
  return renderPage({ title: 'Signing out', body, script: AUTO_SUBMIT, site });
}

const PROBE_SCRIPT = `window.parent.postMessage("unsupported", "*");`;

/**
 * keycloak-js third-party-cookie probe: always report "unsupported" so it skips the session iframe.
 * The forum's pages frame it (`frameAncestors`); its CSP allows its one script by hash, nothing else.
 */
export function thirdPartyCookiesProbe(frameAncestors: readonly string[]): Page {
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>3p-cookies</title></head><body><script>${PROBE_SCRIPT}</script></body></html>`;
  const csp = ["default-src 'none'", `script-src ${sha256(PROBE_SCRIPT)}`, `frame-ancestors ${frameAncestors.join(' ')}`, "form-action 'none'", "base-uri 'none'"].join('; ');
  return { status: 200, html, csp };
}

/**
 * The policy of every answer of oidc-provider itself (the realm's own pages set theirs): nothing may
 * load or run, except what oidc-provider adds by hash to `script-src` (its self-submitting form_post
 * page). The placeholder is the hash of an empty script, which allows nothing.
 */
export function providerCsp(formTargets: readonly string[], frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${sha256('')}`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    `frame-ancestors ${frameAncestors.join(' ')}`,
    "base-uri 'none'",
  ].join('; ');
}
