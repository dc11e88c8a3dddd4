import { SUMMARY_LENGTH } from '../constants.ts';
import { parseMarkdown, type Token } from './parse.ts';

/** Blocks whose end ends a line of plain text. */
const BLOCK_ENDS = new Set(['paragraph_close', 'heading_close', 'list_item_close', 'blockquote_close', 'tr_close', 'code_block', 'fence', 'hr']);

/** An inline token's text: what it shows, without its markup. */
function inlineText(children: readonly Token[]): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline' || child.type === 'mention') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n';
    else if (child.type === 'image') text += inlineText(child.children ?? []);
  }
  return text;
}

/**
 * A text in the forum's Markdown as plain text (the same parser as the rendering): what a reader
 * sees, without markup characters. A link is its text, an image its alt, code its code; each block
 * ends a line and table cells are parted by a space. For excerpts, snippets, notifications and the
 * console's tables.
 */
export function markdownToPlainText(source: string): string {
  let text = '';
  for (const token of parseMarkdown(source)) {
    if (token.type === 'inline') text += inlineText(token.children ?? []);
    else if (token.type === 'code_block' || token.type === 'fence') text += token.content.replace(/\n$/, '');
    else if (token.type === 'th_close' || token.type === 'td_close') text += ' ';
    if (BLOCK_ENDS.has(token.type)) text += '\n';
  }
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** Plain text on one line: every run of white space (line breaks included) one space. */
export function plainLine(source: string): string {
  return markdownToPlainText(source).replace(/\s+/g, ' ');
}

/** What a cut leaves at its end that goes before the '...': spaces, stops, commas, colons, ellipses and dashes. */
const CUT_END = /[\s.,;:…–—-]+$/u;

/**
 * A card's preview of a description: its plain text on one line, cut at SUMMARY_LENGTH characters
 * (not UTF-16 units), then '...'; what the cut leaves at its end from CUT_END goes before the '...'
 * (so never "time...." nor "the ..."). `source` may be the description's opening only
 * (SUMMARY_SOURCE_LENGTH characters, as the read model keeps it).
 */
export function summarize(source: string): string {
  const characters = Array.from(plainLine(source));
  if (characters.length <= SUMMARY_LENGTH) return characters.join('');
  return `${characters.slice(0, SUMMARY_LENGTH).join('').replace(CUT_END, '')}...`;
}
