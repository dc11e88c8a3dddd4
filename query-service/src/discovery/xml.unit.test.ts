import { describe, expect, it } from 'vitest';
import { xmlText, xmlTime } from './xml.ts';

describe('xmlText', () => {
  it('escapes markup, so a text never opens an element, an entity or a CDATA section', () => {
    expect(xmlText(`<a href="x">&amp; 'q' ]]></a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;amp; &apos;q&apos; ]]&gt;&lt;/a&gt;');
  });

  it('leaves out what XML 1.0 cannot hold: NUL and other controls, U+FFFE, U+FFFF and lone surrogates', () => {
    expect(xmlText('a\u0000b\u0001c\u001Fd\u000Be\u000Cf\uFFFEg\uFFFFh\uD800i\uDFFFj')).toBe('abcdefghij');
  });

  it('keeps tab, line breaks, every other character and pairs of surrogates (emoji)', () => {
    const text = 'tab\there\nline\r\nÀ ü 中文 \u007F\u0085 \uD83D\uDE00 \u{10FFFF}';
    expect(xmlText(text)).toBe(text);
  });
});

describe('xmlTime', () => {
  it('writes UTC to the second', () => {
    expect(xmlTime(new Date('2026-11-30T10:11:12.345Z'))).toBe('2026-11-30T10:11:12Z');
  });
});
