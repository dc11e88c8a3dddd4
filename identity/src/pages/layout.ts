import { createHash } from 'node:crypto';
import { BRAND } from '@forum/contracts';
import { escapeHtml } from '@forum/platform';

/** Server-rendered pages of the realm: plain HTML, one inline style and script, no external assets. */

export { escapeHtml };

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
.field-help{margin:6px 0 0;color:#4b5563;font-size:.875rem}
.field-error{margin:6px 0 0;color:#b71c1c;font-size:.875rem}
.notice{margin-bottom:16px;padding:12px;border:1px solid #b7dfb9;border-radius:8px;background:#edf7ee;color:#1b5e20;font-size:.9375rem}
.notice p{margin:0}
.notice p+p{margin-top:8px}
.divider{display:flex;align-items:center;gap:12px;margin:20px 0;color:#6b7280;font-size:.875rem}
.divider::before,.divider::after{content:"";flex:1;height:1px;background:#e5e7eb}
.social{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;padding:11px 12px;border:1px solid #cbd5e1;border-radius:8px;background:#fff;color:#1f2937;font-family:inherit;font-size:1rem;font-weight:600;line-height:1.2;cursor:pointer}
a.social:hover{background:#f8fafc;text-decoration:none}
.social:disabled{opacity:.55;cursor:not-allowed}
.social-why{margin:8px 0 0;color:#4b5563;font-size:.875rem;text-align:center}
.card.wide{max-width:760px}
.dev{margin-bottom:16px;padding:12px;border:1px solid #f3d37a;border-radius:8px;background:#fff8e1;color:#6d4c00;font-size:.9375rem}
.mail{padding:16px 0;border-top:1px solid #e5e7eb}
.mail h2{margin:0 0 4px;font-size:1rem;font-weight:600}
.mail .meta{color:#4b5563;font-size:.875rem}
.mail pre{margin:8px 0 0;white-space:pre-wrap;word-break:break-word;font:inherit;font-size:.9375rem}`;

export function sha256(text: string) {
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
