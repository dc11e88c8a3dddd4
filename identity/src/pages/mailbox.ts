import { escapeHtml, type Page, renderPage, type Site } from './layout.ts';

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
<div class="dev" role="note"><strong>For development only.</strong> No mail server is configured (SMTP_URL is not set), so every mail the forum sends (address confirmations, password resets, notifications and the daily digest) is kept here instead, newest first. Set SMTP_URL to send real mail; this page then goes away.</div>
${list}`;
  return renderPage({ title: 'Mailbox', body, site, wide: true });
}
