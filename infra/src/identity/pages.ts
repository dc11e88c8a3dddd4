import { createHash } from 'node:crypto';

/** Server-rendered pages of the realm: plain HTML, one inline style and script, no external assets. */

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `*{box-sizing:border-box}
html{color-scheme:light}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px 16px;background:#f4f6f8;color:#1f2937;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.brand{display:flex;align-items:center;gap:10px;margin-bottom:20px;font-size:1.75rem;font-weight:700;letter-spacing:-.02em;color:#1976d2}
.brand .mark{display:inline-flex;align-items:center;justify-content:center;width:36px;height:36px;border-radius:10px;background:#1976d2;color:#fff;font-size:1.25rem}
.card{width:100%;max-width:400px;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08),0 8px 24px rgba(0,0,0,.06);padding:32px}
h1{margin:0 0 20px;font-size:1.25rem;font-weight:600}
p{margin:0 0 16px}
label{display:block;margin:0 0 6px;font-size:.875rem;font-weight:600}
.field{margin-bottom:16px}
input[type=email],input[type=password],input[type=text]{width:100%;padding:10px 12px;font:inherit;color:inherit;background:#fff;border:1px solid #cbd5e1;border-radius:8px}
input:focus{outline:2px solid #1976d2;outline-offset:1px;border-color:#1976d2}
.password{position:relative}
.password input{padding-right:72px}
.toggle{position:absolute;right:6px;top:50%;transform:translateY(-50%);padding:6px 8px;border:0;border-radius:6px;background:none;color:#1976d2;font-family:inherit;font-size:.8125rem;font-weight:600;line-height:1;cursor:pointer}
.toggle:hover{background:#e3f2fd}
.row{display:flex;justify-content:flex-end;margin:-4px 0 16px;font-size:.875rem}
.primary{display:block;width:100%;padding:12px;border:0;border-radius:8px;background:#1976d2;color:#fff;font-family:inherit;font-size:1rem;font-weight:600;line-height:1.2;text-align:center;cursor:pointer}
.primary:hover{background:#1565c0}
.alert{margin-bottom:16px;padding:12px;border:1px solid #f5c2c0;border-radius:8px;background:#fdecea;color:#b71c1c;font-size:.9375rem}
.muted{color:#4b5563;font-size:.9375rem}
.footer{margin:20px 0 0;text-align:center;color:#4b5563;font-size:.9375rem}
a{color:#1976d2;text-decoration:none}
a:hover{text-decoration:underline}`;

const PASSWORD_TOGGLE = `(function(){var b=document.getElementById('toggle-password'),p=document.getElementById('password');if(!b||!p)return;b.hidden=false;b.addEventListener('click',function(){var show=p.type==='password';p.type=show?'text':'password';b.textContent=show?'Hide':'Show';b.setAttribute('aria-pressed',String(show));b.setAttribute('aria-label',show?'Hide password':'Show password');p.focus();});})();`;

const AUTO_SUBMIT = `document.getElementById('op.logoutForm').submit();`;

function sha256(text: string) {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

export interface Page {
  status: number;
  html: string;
  csp: string;
}

interface PageOptions {
  title: string;
  body: string;
  script?: string;
  status?: number;
  /** Origins a form on this page may submit (or be redirected) to, besides 'self'. */
  formTargets: readonly string[];
}

export function renderPage({ title, body, script, status = 200, formTargets }: PageOptions): Page {
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Forum</title>
<style>${STYLE}</style>
</head>
<body>
<div class="brand" aria-label="Forum"><span class="mark" aria-hidden="true">F</span><span>Forum</span></div>
<main class="card">
${body}
</main>
${script ? `<script>${script}</script>` : ''}
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    `script-src ${script ? sha256(script) : "'none'"}`,
    "img-src 'self' data:",
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { status, html, csp };
}

export interface LoginView {
  action: string;
  csrf: string;
  email: string;
  error?: string;
  registerUrl: string;
  resetUrl: string;
  formTargets: readonly string[];
}

export function loginPage(view: LoginView): Page {
  const body = `<h1>Sign in to your account</h1>
${view.error ? `<div class="alert" role="alert">${escapeHtml(view.error)}</div>` : ''}
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
<button type="button" class="toggle" id="toggle-password" aria-controls="password" aria-pressed="false" aria-label="Show password" hidden>Show</button>
</div>
</div>
<div class="row"><a href="${escapeHtml(view.resetUrl)}">Forgot password?</a></div>
<button type="submit" class="primary">Sign in</button>
</form>
<p class="footer">New to Forum? <a href="${escapeHtml(view.registerUrl)}">Register</a></p>`;
  return renderPage({
    title: 'Sign in',
    body,
    script: PASSWORD_TOGGLE,
    status: 200,
    formTargets: view.formTargets,
  });
}

export function messagePage(options: {
  title: string;
  message: string;
  status?: number;
  link?: { href: string; label: string };
  formTargets: readonly string[];
}): Page {
  const body = `<h1>${escapeHtml(options.title)}</h1>
<p class="muted">${escapeHtml(options.message)}</p>
${options.link ? `<p class="footer"><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.label)}</a></p>` : ''}`;
  return renderPage({ title: options.title, body, status: options.status ?? 200, formTargets: options.formTargets });
}

/**
 * oidc-provider's logout form, submitted at once (Keycloak signs out without asking).
 * `logout=yes` ends the whole session, not just the one client.
 */
export function logoutPage(form: string, formTargets: readonly string[]): Page {
  const withLogout = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  const body = `<h1>Signing you out…</h1>
${withLogout}
<noscript><button type="submit" class="primary" form="op.logoutForm">Sign out</button></noscript>`;
  return renderPage({ title: 'Signing out', body, script: AUTO_SUBMIT, formTargets });
}

/** keycloak-js third-party-cookie probe: always report "unsupported" so it skips the session iframe. */
export const THIRD_PARTY_COOKIES_HTML = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>3p-cookies</title></head><body><script>window.parent.postMessage("unsupported", "*");</script></body></html>`;
