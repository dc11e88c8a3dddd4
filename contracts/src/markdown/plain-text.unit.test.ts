import { describe, expect, it } from 'vitest';
import { SUMMARY_LENGTH, SUMMARY_SOURCE_LENGTH } from '../constants.ts';
import { markdownToPlainText, plainLine, summarize } from './plain-text.ts';
import { parseMarkdown } from './parse.ts';
import { XSS_VECTORS } from './xss-corpus.ts';

describe('Markdown as plain text', () => {
  it('shows what a reader sees, without markup characters', () => {
    const source = [
      '# A heading',
      '',
      'Some **bold**, _italic_, ~~struck~~ and `code` with [a link](https://example.com "t") and ![a cat](https://example.com/cat.png).',
      '',
      '- one',
      '- [x] two',
      '',
      '> quoted',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '',
      '| a | b |',
      '| - | -: |',
      '| 1 | 2 |',
    ].join('\n');
    expect(markdownToPlainText(source)).toBe('A heading\nSome bold, italic, struck and code with a link and a cat.\none\ntwo\nquoted\nconst a = 1;\na b\n1 2');
  });

  it('keeps the line breaks of a text written before Markdown, and its HTML as text', () => {
    expect(markdownToPlainText('first line\nsecond line\n\n<b>not bold</b>')).toBe('first line\nsecond line\n<b>not bold</b>');
  });

  it('gives the source of a link it does not make (not http(s) nor mailto) as text', () => {
    expect(plainLine('[click](javascript:alert(1))')).toBe('[click](javascript:alert(1))');
    expect(plainLine('[mail me](mailto:a@example.com)')).toBe('mail me');
  });

  it('summarizes a description on one line, cut at SUMMARY_LENGTH characters with "..." after the cut\'s trailing punctuation', () => {
    expect(summarize('**Short** one')).toBe('Short one');
    const long = `${'word '.repeat(15)}and, more words`;
    const cut = summarize(long);
    expect(cut.endsWith('...')).toBe(true);
    expect(Array.from(cut.slice(0, -3)).length).toBeLessThanOrEqual(SUMMARY_LENGTH);
    expect(cut).not.toMatch(/[\s,]\.\.\.$/);
    expect(summarize(`${'😀'.repeat(SUMMARY_LENGTH)}`)).toBe('😀'.repeat(SUMMARY_LENGTH));
  });
});

describe("a card's summary", () => {
  it('#39 edge 16: a cut after a full stop, a space or a comma ends in one "...", not "...." nor " ..."', () => {
    // each description's 80th character is the punctuation or space the cut leaves before the "..."
    const upTo80 = (start: string, end: string) => start + 'x'.repeat(SUMMARY_LENGTH - [...start].length - [...end].length) + end;
    expect(summarize(upTo80('Part ', 'full time.') + ' The rest of the sentence.')).toBe(upTo80('Part ', 'full time.').replace(/\.$/, '...'));
    expect(summarize(upTo80('Both ', 'or the ') + 'other one.')).toBe(upTo80('Both ', 'or the ').replace(/ $/, '...'));
    expect(summarize(upTo80('Many ', 'wait, ... ') + 'then more.')).toBe(upTo80('Many ', 'wait, ... ').replace(/, \.\.\. $/, '...'));
    expect(summarize(upTo80('Emoji ', '😀.') + ' More.')).toBe(upTo80('Emoji ', '😀.').replace(/\.$/, '...'));
  });

  it('is cut from the plain text: markup takes no room, and a cut opening (SUMMARY_SOURCE_LENGTH) reads as the whole description', () => {
    const description = `**${'word '.repeat(9)}word** [a link](https://example.com/${'x'.repeat(200)}) and ${'more '.repeat(300)}`;
    expect(summarize(description)).toBe(`${'word '.repeat(9)}word a link and more more more more...`);
    expect(summarize(Array.from(description).slice(0, SUMMARY_SOURCE_LENGTH).join(''))).toBe(summarize(description));
  });
});

describe('the parser', () => {
  it('marks task list items and takes their marker out of the text', () => {
    const tokens = parseMarkdown('- [ ] to do\n- [x] done\n- [y] not a task');
    const items = tokens.filter((t) => t.type === 'list_item_open').map((t) => (t.meta as { task?: string } | null)?.task);
    expect(items).toEqual(['open', 'done', undefined]);
    expect(plainLine('- [ ] to do\n- [x] done')).toBe('to do done');
  });

  it('makes no link of any XSS vector but an http(s) or mailto one, and no HTML token', () => {
    for (const { name, source } of XSS_VECTORS) {
      const tokens = parseMarkdown(source).flatMap((t) => [t, ...(t.children ?? [])]);
      expect(
        tokens.filter((t) => t.type.startsWith('html')),
        name,
      ).toEqual([]);
      for (const t of tokens.filter((t) => t.type === 'link_open' || t.type === 'image')) {
        expect(String(t.attrGet('href') ?? t.attrGet('src')), name).toMatch(/^(https?:|mailto:)/i);
      }
    }
  });
});
