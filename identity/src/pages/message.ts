import { escapeHtml, type Page, renderPage, type Site } from './layout.ts';

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
