import { commentLink, NOTIFICATIONS_PATH, postLink, type ModerationItem, type NotificationKind } from '@forum/contracts';
import { escapeHtml } from '@forum/platform';

/** One notification as an email shows it: what the read models say now (names and titles joined at send time). */
export interface MailItem {
  readonly kind: NotificationKind;
  readonly postId: string | null;
  readonly commentId: string | null;
  /** The post's title now; null once the post is gone. */
  readonly postTitle: string | null;
  /** Who acted, by their current name ('Deleted user' once erased); null when no one is named (a warning). */
  readonly actorName: string | null;
  readonly tag: string | null;
  /** Comments collapsed into the notification. */
  readonly count: number;
  /** A warning's reason, or the one staff gave for hiding or suspending. */
  readonly reason: string | null;
  /** What staff did (a `moderation` notification); absent: the line says it in general. */
  readonly action?: ModerationItem['action'] | null;
  /** A suspension's end (null: until lifted). */
  readonly until?: string | null;
}

export interface MailFrame {
  /** The forum's name (BRAND.name). */
  readonly brand: string;
  /** Where members reach the forum (PUBLIC_URL's origin): every link is absolute. */
  readonly origin: string;
  readonly recipientName: string;
  /** The signed token of the unsubscribe links (the kinds this email is of). */
  readonly unsubscribeToken: string;
}

export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** RFC 8058's List-Unsubscribe and List-Unsubscribe-Post. */
  readonly headers: Readonly<Record<string, string>>;
}

const quoted = (title: string | null) => (title === null ? 'a post that was removed' : `“${title}”`);

/** One line that says what happened. */
export function lineOf(item: MailItem): string {
  const actor = item.actorName ?? 'Someone';
  switch (item.kind) {
    case 'reply':
      return item.count > 1 ? `${item.count} new comments on your post ${quoted(item.postTitle)}` : `${actor} commented on your post ${quoted(item.postTitle)}`;
    case 'followed-post':
      return item.count > 1 ? `${item.count} new comments on ${quoted(item.postTitle)}` : `${actor} commented on ${quoted(item.postTitle)}`;
    case 'followed-tag':
      return `${actor} posted ${quoted(item.postTitle)} in #${item.tag ?? ''}`;
    case 'mention':
      return `${actor} mentioned you in ${quoted(item.postTitle)}`;
    case 'warning':
      return `A moderator warned you: ${item.reason ?? ''}`;
    case 'moderation':
      return moderationLine(item);
    case 'announcement':
      return 'A new announcement';
  }
}

/** What staff did to the member's post, comment or account, with the reason they gave. */
function moderationLine(item: MailItem): string {
  const why = item.reason ? `: ${item.reason}` : '';
  switch (item.action) {
    case 'post-hidden':
      return `A moderator hid your post ${quoted(item.postTitle)}${why}`;
    case 'post-unhidden':
      return `A moderator showed your post ${quoted(item.postTitle)} again`;
    case 'comment-hidden':
      return `A moderator hid your comment on ${quoted(item.postTitle)}${why}`;
    case 'comment-unhidden':
      return `A moderator showed your comment on ${quoted(item.postTitle)} again`;
    case 'suspended':
      return `${item.until ? `Your account is suspended until ${new Date(item.until).toUTCString()}` : 'Your account is suspended until a moderator lifts it'}${why}`;
    case 'suspension-lifted':
      return 'A moderator lifted your suspension';
    default:
      return `A moderator acted on your account${why}`;
  }
}

/** Where the notification leads in forum-web, absolute. */
export function linkOf(item: MailItem, origin: string): string {
  if (item.postId === null || item.postTitle === null) return `${origin}${NOTIFICATIONS_PATH}`;
  return `${origin}${item.commentId ? commentLink(item.postId, item.commentId) : postLink(item.postId)}`;
}

const KIND_NAMES: Readonly<Record<NotificationKind, string>> = {
  reply: 'replies to your posts',
  'followed-post': 'comments on posts you follow',
  'followed-tag': 'new posts in tags you follow',
  mention: 'mentions of you',
  warning: "moderators' warnings",
  moderation: "moderators' actions on your posts and account",
  announcement: 'announcements',
};

function subjectOf(what: NotificationKind | 'digest', items: readonly MailItem[], brand: string): string {
  if (what === 'digest') return `[${brand}] Your digest: ${items.length} ${items.length === 1 ? 'notification' : 'notifications'} you have not seen`;
  if (items.length === 1) return `[${brand}] ${lineOf(items[0]!)}`;
  return `[${brand}] ${items.length} new ${KIND_NAMES[what]}`;
}

/**
 * The email of `items` (one kind, batched; or a member's digest): text and HTML, every name and
 * title escaped in the HTML, a link to each notification's content, and the unsubscribe links
 * (RFC 8058's headers to the API, and a link in the body to forum-web's /unsubscribe page).
 */
export function renderMail(what: NotificationKind | 'digest', items: readonly MailItem[], frame: MailFrame): RenderedMail {
  const { brand, origin, recipientName, unsubscribeToken } = frame;
  const token = encodeURIComponent(unsubscribeToken);
  const oneClick = `${origin}/api/unsubscribe?token=${token}`;
  const unsubscribePage = `${origin}/unsubscribe?token=${token}`;
  const settings = `${origin}${NOTIFICATIONS_PATH}`;
  const stopWhat = what === 'digest' ? 'this digest' : KIND_NAMES[what];
  const intro = what === 'digest' ? `Here is what happened on ${brand} that you have not seen yet:` : `Here is what happened on ${brand}:`;
  const lines = items.map((item) => ({ line: lineOf(item), link: linkOf(item, origin) }));

  const text = [
    `Hello ${recipientName},`,
    '',
    intro,
    '',
    ...lines.flatMap(({ line, link }) => [`- ${line}`, `  ${link}`]),
    '',
    `All your notifications: ${settings}`,
    '',
    `Stop emails of ${stopWhat}: ${unsubscribePage}`,
  ].join('\n');

  const html = [
    '<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1f2937">',
    `<p>Hello ${escapeHtml(recipientName)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${lines.map(({ line, link }) => `<li><a href="${escapeHtml(link)}">${escapeHtml(line)}</a></li>`).join('')}</ul>`,
    `<p><a href="${escapeHtml(settings)}">All your notifications</a></p>`,
    `<p style="font-size:13px;color:#4b5563">You get this email from ${escapeHtml(brand)}. <a href="${escapeHtml(unsubscribePage)}">Stop emails of ${escapeHtml(stopWhat)}</a>.</p>`,
    '</body></html>',
  ].join('\n');

  return {
    subject: subjectOf(what, items, brand),
    text,
    html,
    headers: { 'List-Unsubscribe': `<${oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
