import { cutText } from '@forum/contracts';
import { plainLine } from '@forum/contracts/markdown';

/** A member's Markdown as plain text on one line, cut at `max` characters when given. */
export function PlainMarkdown({ source, max }: { source: string; max?: number }) {
  const text = plainLine(source);
  return max === undefined ? text : cutText(text, max).preview;
}
