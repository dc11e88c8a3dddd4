import { allowedLink, mentionPath, type Token } from '@forum/contracts/markdown';
import { createElement, type ReactNode } from 'react';
import { CodeBlock } from './CodeBlock.tsx';

/** What every link carries: no endorsement, member-written, and no window or referrer handed to the other site. */
export const LINK_REL = 'nofollow ugc noopener noreferrer';

/**
 * Headings a member writes sit under the page's own: `#` is an h3 (under the page's h1 and its
 * sections' h2), `##` an h4, `###` an h5, and the rest h6.
 */
export function demotedHeading(tag: string): string {
  const level = Number(tag.slice(1));
  return `h${Math.min(level + 2, 6)}`;
}

/** Where an image may load from: https, and not the forum's own origin (an image there would be a request made with the reader's cookies). */
export function imageAllowed(src: string, ownOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.origin !== ownOrigin;
}

interface Context {
  ownOrigin: string;
}

/** The text of tokens (an image's alt). */
function textOf(tokens: readonly Token[]): string {
  return tokens.map((t) => (t.type === 'text' || t.type === 'code_inline' ? t.content : t.type === 'image' ? textOf(t.children ?? []) : '')).join('');
}

/** A cell's alignment, which markdown-it gives as `style="text-align:…"`: read back into a known value only. */
/** An attribute markdown-it set on a token, as text. */
function attr(token: Token, name: string): string | undefined {
  const value = token.attrGet(name);
  return value === null ? undefined : String(value);
}

function alignment(token: Token): 'left' | 'center' | 'right' | undefined {
  const match = /^text-align:(left|center|right)$/.exec(attr(token, 'style') ?? '');
  return match ? (match[1] as 'left' | 'center' | 'right') : undefined;
}

function link(token: Token, key: number, children: ReactNode[]): ReactNode {
  const href = attr(token, 'href') ?? '';
  // markdown-it made no link of a destination validateLink refused; this is the second lock
  if (!allowedLink(href)) return createElement('span', { key }, children);
  return createElement('a', { key, href, rel: LINK_REL, title: attr(token, 'title') }, children);
}

function image(token: Token, key: number, context: Context): ReactNode {
  const src = attr(token, 'src') ?? '';
  const alt = textOf(token.children ?? []);
  if (imageAllowed(src, context.ownOrigin)) {
    return createElement('img', { key, src, alt, title: attr(token, 'title'), loading: 'lazy', referrerPolicy: 'no-referrer', decoding: 'async' });
  }
  // not loaded: a link to it where it may be one, else its alt as text
  if (allowedLink(src)) return createElement('a', { key, href: src, rel: LINK_REL }, alt || src);
  return createElement('span', { key }, alt);
}

/** Inline tokens as React elements: text, emphasis, strikethrough, code, links, @mentions, images and line breaks. */
function inline(tokens: readonly Token[], context: Context): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { token: Token; children: ReactNode[] }[] = [];
  const top = () => stack.at(-1)?.children ?? root;
  tokens.forEach((token, key) => {
    if (token.nesting === 1) {
      stack.push({ token, children: [] });
      return;
    }
    if (token.nesting === -1) {
      const open = stack.pop();
      if (!open) return;
      const parent = top();
      if (open.token.type === 'link_open') parent.push(link(open.token, key, open.children));
      else if (open.token.type === 'strong_open') parent.push(createElement('strong', { key }, open.children));
      else if (open.token.type === 'em_open') parent.push(createElement('em', { key }, open.children));
      else if (open.token.type === 's_open') parent.push(createElement('s', { key }, open.children));
      else parent.push(...open.children);
      return;
    }
    const parent = top();
    if (token.type === 'text') parent.push(token.content);
    else if (token.type === 'code_inline') parent.push(createElement('code', { key }, token.content));
    else if (token.type === 'softbreak' || token.type === 'hardbreak') parent.push(createElement('br', { key }));
    else if (token.type === 'image') parent.push(image(token, key, context));
    // an @mention: a link to the member's profile (found by handle), the forum's own page, so no rel
    else if (token.type === 'mention')
      parent.push(createElement('a', { key, href: mentionPath(String((token.meta as { handle: string }).handle)), 'data-mention': '' }, token.content));
    // html_inline cannot come (html: false); anything else unknown shows its source
    else parent.push(token.content);
  });
  return root;
}

/** Block elements by their open token's type: only these become elements, with no attribute from the source. */
const BLOCKS: Record<string, string> = {
  bullet_list_open: 'ul',
  ordered_list_open: 'ol',
  list_item_open: 'li',
  blockquote_open: 'blockquote',
  table_open: 'table',
  thead_open: 'thead',
  tbody_open: 'tbody',
  tr_open: 'tr',
};

function block(open: Token, key: number, children: ReactNode[]): ReactNode {
  switch (open.type) {
    case 'paragraph_open':
      // a tight list's paragraphs are not shown as paragraphs
      return open.hidden ? children : createElement('p', { key }, children);
    case 'heading_open':
      return createElement(demotedHeading(open.tag), { key }, children);
    case 'ordered_list_open': {
      const start = Number(attr(open, 'start') ?? 1);
      return createElement('ol', { key, start: Number.isSafeInteger(start) ? start : undefined }, children);
    }
    case 'list_item_open': {
      const task = (open.meta as { task?: 'open' | 'done' } | null)?.task;
      if (!task) return createElement('li', { key }, children);
      const box = createElement('input', {
        key: 'task',
        type: 'checkbox',
        disabled: true,
        checked: task === 'done',
        'aria-label': task === 'done' ? 'Done' : 'Not done',
      });
      return createElement('li', { key, className: 'task' }, [box, ' ', ...children]);
    }
    case 'th_open':
    case 'td_open':
      return createElement(open.type === 'th_open' ? 'th' : 'td', { key, style: { textAlign: alignment(open) } }, children);
    default: {
      const tag = BLOCKS[open.type];
      return tag ? createElement(tag, { key }, children) : children;
    }
  }
}

/**
 * A token stream of the forum's Markdown as React elements. Each element is one this function
 * chose by the token's type, with attributes it sets itself (a link's checked href, an image's
 * checked https src), and text is React text: nothing from the source becomes a tag or an attribute
 * name, and no HTML string is made.
 */
export function renderTokens(tokens: readonly Token[], context: Context): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { token: Token; children: ReactNode[] }[] = [];
  const top = () => stack.at(-1)?.children ?? root;
  tokens.forEach((token, key) => {
    if (token.nesting === 1) stack.push({ token, children: [] });
    else if (token.nesting === -1) {
      const open = stack.pop();
      if (open) top().push(block(open.token, key, open.children));
    } else if (token.type === 'inline') top().push(...inline(token.children ?? [], context));
    else if (token.type === 'fence' || token.type === 'code_block') {
      top().push(createElement(CodeBlock, { key, code: token.content.replace(/\n$/, ''), language: token.info.trim().split(/\s+/)[0] ?? '' }));
    } else if (token.type === 'hr') top().push(createElement('hr', { key }));
  });
  return root;
}
