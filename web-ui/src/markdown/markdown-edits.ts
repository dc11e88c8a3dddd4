/** A text and its selection (as a textarea's selectionStart and selectionEnd). */
export interface Edit {
  text: string;
  start: number;
  end: number;
}

export type Format = 'bold' | 'italic' | 'link' | 'code' | 'list' | 'quote';

/** Wraps the selection in `before` and `after`; an empty selection gets `placeholder`, selected, to type over. */
function wrap({ text, start, end }: Edit, before: string, after: string, placeholder: string): Edit {
  const selected = text.slice(start, end) || placeholder;
  const next = text.slice(0, start) + before + selected + after + text.slice(end);
  return { text: next, start: start + before.length, end: start + before.length + selected.length };
}

/** Puts `prefix` before each line the selection touches, and selects those lines. */
function prefixLines({ text, start, end }: Edit, prefix: (index: number) => string): Edit {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end > start && text[end - 1] === '\n' ? end - 1 : end);
  const until = to === -1 ? text.length : to;
  const lines = text
    .slice(from, until)
    .split('\n')
    .map((line, index) => prefix(index) + line)
    .join('\n');
  return { text: text.slice(0, from) + lines + text.slice(until), start: from, end: from + lines.length };
}

/**
 * What a toolbar button or shortcut does: Markdown put around or before the selection, nothing
 * else. A link selects its address to type over; code over several lines is a fenced block.
 */
export function applyFormat(edit: Edit, format: Format): Edit {
  switch (format) {
    case 'bold':
      return wrap(edit, '**', '**', 'bold text');
    case 'italic':
      return wrap(edit, '_', '_', 'italic text');
    case 'code': {
      const selected = edit.text.slice(edit.start, edit.end);
      return selected.includes('\n') ? wrap(edit, '```\n', '\n```', '') : wrap(edit, '`', '`', 'code');
    }
    case 'link': {
      const label = edit.text.slice(edit.start, edit.end) || 'link text';
      const address = 'https://';
      const inserted = `[${label}](${address})`;
      const text = edit.text.slice(0, edit.start) + inserted + edit.text.slice(edit.end);
      const at = edit.start + label.length + 3;
      return { text, start: at, end: at + address.length };
    }
    case 'list':
      return prefixLines(edit, () => '- ');
    case 'quote':
      return prefixLines(edit, () => '> ');
    default:
      return format satisfies never;
  }
}
