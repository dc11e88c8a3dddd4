import MarkdownIt from 'markdown-it';
import type { MarkdownIt as Parser, StateCore, Token } from 'markdown-it';
import { mentionedHandles, mentions } from './mentions.ts';

export type { Token };

/**
 * The forum's Markdown (docs/product.md, "Markdown"): CommonMark with GFM's tables, strikethrough,
 * task lists and autolinks, parsed by markdown-it into its token stream. Nothing here makes HTML:
 * the web renders the tokens into React elements of its own choosing (web-ui's MarkdownView), and
 * `markdownToPlainText` reads the same tokens for every place that shows plain text.
 *
 * - `html: false`: HTML in the source is never a tag; markdown-it leaves it as text.
 * - Line breaks are kept (`breaks`), as the forum showed text before it read Markdown.
 * - A link or image whose address is not http(s) or mailto is not a link: its source stays as text.
 */
const LINK_SCHEMES = /^(?:https?:|mailto:)/i;

/** Whether a link's destination (as markdown-it normalised it: entities decoded, percent-encoded) may be a link. */
export function allowedLink(url: string): boolean {
  return LINK_SCHEMES.test(url.trim());
}

/** The task marker at the start of a list item's text: `[ ]`, `[x]` or `[X]`, then a space. */
const TASK = /^\[([ xX])\][ \t]/;

/** GFM's task lists: a list item whose text opens with a marker loses it, and its list_item_open gets `meta.task` ('done' or 'open'). */
function taskLists(state: StateCore) {
  const tokens = state.tokens;
  tokens.forEach((inline, i) => {
    const item = tokens[i - 2];
    if (inline.type !== 'inline' || tokens[i - 1]?.type !== 'paragraph_open' || item?.type !== 'list_item_open') return;
    const first = inline.children?.[0];
    const marker = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !marker) return;
    first.content = first.content.slice(marker[0].length);
    item.meta = { task: marker[1] === ' ' ? 'open' : 'done' };
  });
}

let parser: Parser | undefined;

function markdownIt(): Parser {
  if (parser) return parser;
  const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });
  md.validateLink = allowedLink;
  md.core.ruler.push('task_lists', taskLists);
  md.core.ruler.push('mentions', mentions);
  parser = md;
  return md;
}

/** The token stream of a text in the forum's Markdown. */
export function parseMarkdown(source: string): Token[] {
  return markdownIt().parse(source, {});
}

/** The handles a text in the forum's Markdown @mentions, folded, each once, in order (see mentions.ts). */
export function mentionsIn(source: string): string[] {
  return mentionedHandles(parseMarkdown(source));
}
