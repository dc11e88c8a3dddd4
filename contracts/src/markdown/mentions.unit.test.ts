import { describe, expect, it } from 'vitest';
import { markdownToPlainText, mentionsIn } from './index.ts';

describe('@mentions', () => {
  it('finds handles in text, folded, once each, in order', () => {
    expect(mentionsIn('Hi @Alice and @bob_2, @alice again; (@carol.d) @dan-e!')).toEqual(['alice', 'bob_2', 'carol.d', 'dan-e']);
  });

  it('is no mention inside an address, a path, code or a link, nor too short or too long', () => {
    const source = 'mail bob@forum.local, see /x/@eve, `@frank` and [@gina](https://a.example) or https://a.example/@hank @ab @' + 'x'.repeat(21);
    expect(mentionsIn(source)).toEqual([]);
    expect(mentionsIn('```\n@ivan\n```')).toEqual([]);
  });

  it('ends a handle before a trailing dot or dash', () => {
    expect(mentionsIn('thanks @jane. And @kim-')).toEqual(['jane', 'kim']);
  });

  it('reads as written in plain text', () => {
    expect(markdownToPlainText('**Hi** @Alice!')).toBe('Hi @Alice!');
  });
});
