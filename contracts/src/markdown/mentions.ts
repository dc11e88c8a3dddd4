import type { StateCore, Token } from 'markdown-it';
import { foldHandle } from '../http/notifications.ts';

/**
 * @mentions (docs/notifications.md#mentions): `@` and a handle (HANDLE_PATTERN, 3 to 20 characters),
 * not right after a letter, digit or one of `_ . @ / -` (so an address or a path is no mention), in
 * text only: code, links and their text never mention anyone. The parser turns each into a token of
 * type `mention` (its `content` '@handle', its `meta.handle` the handle as written), which the web
 * renders as a link to the profile (`mentionPath`) and plain text reads as written.
 */
const MENTION = /(^|[^A-Za-z0-9_.@/-])@([A-Za-z0-9_](?:[A-Za-z0-9_]|[.-](?=[A-Za-z0-9_])){2,19})(?![A-Za-z0-9_]|[.-][A-Za-z0-9_])/g;

/** Where a mention of `handle` leads in forum-web: the profile, found by handle. */
export const mentionPath = (handle: string) => `/u/@${encodeURIComponent(handle)}`;

/** Splits one text token into text and mention tokens. */
function split(token: Token, TokenClass: StateCore['Token']): Token[] {
  const parts: Token[] = [];
  let last = 0;
  for (const match of token.content.matchAll(MENTION)) {
    const start = match.index + match[1]!.length;
    if (start > last) parts.push(textToken(token.content.slice(last, start), TokenClass));
    const mention = new TokenClass('mention', '', 0);
    mention.content = `@${match[2]}`;
    mention.meta = { handle: match[2] };
    parts.push(mention);
    last = start + mention.content.length;
  }
  if (parts.length === 0) return [token];
  if (last < token.content.length) parts.push(textToken(token.content.slice(last), TokenClass));
  return parts;
}

function textToken(content: string, TokenClass: StateCore['Token']): Token {
  const token = new TokenClass('text', '', 0);
  token.content = content;
  return token;
}

/** The parser's core rule: mentions in every inline's text outside links. */
export function mentions(state: StateCore): void {
  for (const inline of state.tokens) {
    if (inline.type !== 'inline' || !inline.children) continue;
    let inLink = 0;
    const children: Token[] = [];
    for (const child of inline.children) {
      if (child.type === 'link_open') inLink += 1;
      else if (child.type === 'link_close') inLink -= 1;
      children.push(...(child.type === 'text' && inLink === 0 && child.content.includes('@') ? split(child, state.Token) : [child]));
    }
    inline.children = children;
  }
}

/** The handles a token stream mentions, folded (foldHandle), each once, in the order of their first mention. */
export function mentionedHandles(tokens: readonly Token[]): string[] {
  const found = new Set<string>();
  for (const token of tokens)
    for (const child of token.children ?? []) if (child.type === 'mention') found.add(foldHandle(String((child.meta as { handle: string }).handle)));
  return [...found];
}
