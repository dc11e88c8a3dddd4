import { describe, expect, it } from 'vitest';
import { CreatePostRequest, CreateTagRequest, fieldErrorsOf, updateMeRequest } from './index.ts';
import {
  characterCount,
  checkText,
  codePoints,
  isLoopbackHost,
  NoBody,
  pageNumber,
  photoUrlProblem,
  textLength,
  type TextKind,
  type TextRule,
} from './text-policy.ts';

const rule = (kind: TextKind, max = 200): TextRule => ({ kind, label: 'Field', max, required: 'Field is required' });
const verdict = (value: unknown, kind: TextKind, max?: number) => checkText(value, rule(kind, max));
const refusal = (value: unknown, kind: TextKind, max?: number) => {
  const result = verdict(value, kind, max);
  return result.ok ? null : result.message;
};
const kept = (value: unknown, kind: TextKind, max?: number) => {
  const result = verdict(value, kind, max);
  if (!result.ok) throw new Error(`refused ${JSON.stringify(value)}: ${result.message}`);
  return result.value;
};

const KINDS: TextKind[] = ['body', 'line', 'title', 'name'];

describe('hostile strings are refused by every kind of text, with a message that names the character', () => {
  it.each([
    ['NUL', 'a\u0000b', /control characters.*U\+0000/],
    ['U+0001', 'a\u0001b', /control characters.*U\+0001/],
    ['DEL', 'a\u007fb', /control characters.*U\+007F/],
    ['NEL (a C1 control)', 'a\u0085b', /control characters.*U\+0085/],
    ['a lone high surrogate', 'a\ud800b', /lone UTF-16 surrogate, U\+D800/],
    ['a lone low surrogate', 'a\udfffb', /lone UTF-16 surrogate, U\+DFFF/],
    ['a high surrogate at the end', 'ab\ud83d', /lone UTF-16 surrogate/],
    ['only zero-width spaces', '\u200b\u200b', /visible characters/],
    ['only spaces and a word joiner', '  \u2060 ', /visible characters/],
    ['only Hangul fillers', '\u3164\u115f', /visible characters/],
    ['only combining marks', '\u0301\u0301', /visible characters/],
    ['only a blank Braille pattern', '\u2800', /visible characters/],
    ['escape (ANSI colours)', '\u001b[31mred', /control characters.*U\+001B/],
  ])('%s', (_name, value, message) => {
    for (const kind of KINDS) expect(refusal(value, kind), kind).toMatch(message);
  });

  it('a tab or a line break is refused in one-line texts and kept in multi-line ones; CRLF and CR become LF', () => {
    for (const kind of ['line', 'title', 'name'] as const) {
      expect(refusal('a\nb', kind)).toMatch(/control characters \(U\+000A\)/);
      expect(refusal('a\tb', kind)).toMatch(/U\+0009/);
    }
    expect(kept('one\r\ntwo\rthree\n\tfour', 'body')).toBe('one\ntwo\nthree\n\tfour');
    expect(refusal('a\u000bb', 'body')).toMatch(/other than tab and line break \(U\+000B\)/);
  });

  it('a value that is not one string is refused: a number, an object, a repeated query parameter', () => {
    expect(refusal(5, 'line')).toBe('Field must be text');
    expect(refusal({ toString: 'x' }, 'line')).toBe('Field must be text');
    expect(refusal(['a', 'b'], 'line')).toBe('Field must be sent once');
    expect(refusal(undefined, 'line')).toBe('Field is required');
  });
});

describe('normalisation', () => {
  it('keeps NFC: a combining sequence NFC composes is stored composed and counted as one', () => {
    const decomposed = 'Cafe\u0301 Zu\u0308rich'; // e + acute, u + diaeresis
    expect(kept(decomposed, 'title')).toBe('Café Zürich');
    expect(kept(decomposed, 'title')).toHaveLength(11);
    expect(textLength(decomposed)).toBe(11);
    expect(kept('\u1100\u1161\u11a8', 'name')).toBe('\uac01'); // Hangul jamo compose into one syllable
    // a decomposed value one over the limit fits once composed
    expect(kept('e\u0301'.repeat(5), 'line', 5)).toBe('é'.repeat(5));
  });

  it('trims, and refuses an empty value only where one is required', () => {
    expect(kept('  hello \n', 'body')).toBe('hello');
    expect(refusal('   ', 'line')).toBe('Field is required');
    expect(checkText('   ', { kind: 'line', label: 'Search', max: 10 })).toEqual({ ok: true, value: '' });
    // invisible-only is refused even where empty is fine: it is not empty, it only looks so
    expect(checkText('\u200b', { kind: 'line', label: 'Search', max: 10 })).toMatchObject({ ok: false });
  });

  it('counts code points, not UTF-16 units: an emoji is one character', () => {
    expect(codePoints('😀😀')).toBe(2);
    expect('😀😀'.length).toBe(4);
    expect(kept('😀'.repeat(5), 'body', 5)).toBe('😀'.repeat(5));
    expect(refusal('😀'.repeat(6), 'body', 5)).toBe('Field must be at most 5 characters');
  });

  it('5,000 characters pass a 5,000 limit and 5,001 do not; 1M characters are refused at once', () => {
    expect(kept('x'.repeat(5_000), 'body', 5_000)).toHaveLength(5_000);
    expect(refusal('x'.repeat(5_001), 'body', 5_000)).toBe('Field must be at most 5000 characters');
    const started = performance.now();
    expect(refusal('x'.repeat(1_000_000), 'body', 5_000)).toBe('Field must be at most 5000 characters');
    expect(refusal('\u0000'.repeat(1_000_000), 'name', 100)).toBe('Field must be at most 100 characters');
    // a million characters under a limit of a million: every rule runs over all of them
    expect(kept('é'.repeat(1_000_000), 'name', 1_000_000)).toHaveLength(1_000_000);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('titles, names and tags: no text direction controls', () => {
  it.each(['\u202e', '\u202a', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069'])('%j is refused in titles and names, kept in bodies', (control) => {
    const value = `evil${control}txt.exe`;
    expect(refusal(value, 'title')).toMatch(/text direction controls/);
    expect(refusal(value, 'name')).toMatch(/text direction controls/);
    expect(kept(value, 'body')).toBe(value);
  });
});

describe('names and tags: no invisible or impersonating characters', () => {
  it.each([
    ['Admin + zero-width space', 'Admin\u200b'],
    ['a zero-width space inside', 'Ad\u200bmin'],
    ['a zero-width joiner between Latin letters', 'Ad\u200dmin'],
    ['a soft hyphen', 'Ad\u00admin'],
    ['a word joiner', 'Admin\u2060'],
    ['a left-to-right mark', '\u200eAdmin'],
    ['a Hangul filler', 'Admin\u3164'],
    ['a variation selector after a letter', 'A\ufe0fdmin'],
    ['a tag character', 'Admin\u{e0041}'],
    ['a blank Braille pattern', 'Admin\u2800'],
    ['a joiner between two emoji that are no sequence', '\u{1f600}\u200d\u{1f600}'],
  ])('%s is refused', (_name, value) => {
    expect(refusal(value, 'name')).toMatch(/invisible characters \(U\+/);
  });

  it('the same characters are kept in titles and bodies (a zero-width space is a line-break hint there)', () => {
    expect(kept('Admin\u200b notes', 'title')).toBe('Admin\u200b notes');
    expect(kept('soft\u00adhyphen', 'body')).toBe('soft\u00adhyphen');
  });

  it.each([
    ['a family (ZWJ sequence)', 'Ann \u{1f468}\u200d\u{1f469}\u200d\u{1f467}'],
    ['a technologist with a skin tone', '\u{1f469}\u{1f3fd}\u200d\u{1f4bb} Ada'],
    ['the rainbow flag (variation selector and ZWJ)', '\u{1f3f3}\ufe0f\u200d\u{1f308}'],
    ['a red heart (variation selector)', 'I \u2764\ufe0f tags'],
    ['the flag of Scotland (tag sequence)', '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}'],
    ['a keycap', '#\ufe0f\u20e3 one'],
    ['Persian with its ZWNJ', 'می\u200cخواهم'],
    ['Devanagari with a ZWJ after the virama', 'क्\u200dष'],
    ['Malayalam with a ZWJ inside a word', 'അവന്\u200dറെ'],
  ])('emoji sequences and joining scripts keep their joiners: %s', (_name, value) => {
    expect(kept(value, 'name')).toBe(value);
  });

  it('runs of white space in a name are one space', () => {
    expect(kept('Ann\u00a0\u00a0  Lee', 'name')).toBe('Ann Lee');
    expect(textLength('Ann\u00a0\u00a0  Lee', 'name')).toBe(7);
  });
});

describe("the web apps' counters", () => {
  it('count what the API counts: code points after NFC and trimming', () => {
    expect(characterCount('Cafe\u0301 \u{1f600} ', 100)).toMatchObject({ count: 6, left: 94, over: false, text: '94 characters left (6 of 100)' });
  });

  it('announce only when the value comes near the limit, reaches it or goes over it', () => {
    const announcements = [0, 5, 89, 90, 91, 99, 100, 101, 150].map((n) => characterCount('x'.repeat(n), 100).announcement);
    expect(announcements).toEqual([
      '',
      '',
      '',
      '10 characters or fewer left',
      '10 characters or fewer left',
      '10 characters or fewer left',
      'Limit reached: 100 characters',
      'Too many characters: the most is 100',
      'Too many characters: the most is 100',
    ]);
    expect(characterCount('x'.repeat(102), 100)).toMatchObject({ over: true, left: -2, text: '2 characters too many (the most is 100)' });
    expect(characterCount('x'.repeat(4), 5).text).toBe('1 character left (4 of 5)');
  });
});

describe('photo addresses', () => {
  const forum = 'https://forum.example';
  const local = 'http://localhost:3100';
  it.each([
    ['https://img.example/a.png', forum, null],
    ['https://forum.example.cdn.example/a.png', forum, null],
    ['https://localhost:5173/a.png', local, null],
    // #39 edge 12: one rule, said one way, wherever the forum runs (its pages load no http:// picture)
    ['http://img.example/a.png', forum, 'Use an https:// address'],
    ['http://localhost:5173/a.png', forum, 'Use an https:// address'],
    ['http://localhost:5173/a.png', local, 'Use an https:// address'],
    ['http://127.0.0.1:9000/a.png', local, 'Use an https:// address'],
    ['http://img.example/a.png', local, 'Use an https:// address'],
    ['javascript:alert(1)', forum, 'Use an https:// address'],
    ['data:image/png;base64,AAAA', forum, 'Use an https:// address'],
    ['not a url', forum, 'Use an https:// address'],
    ['img.example/a.png', forum, 'Use an https:// address'],
    ['https://', forum, 'Photo URL must be a web address (https://…)'],
    ['HTTPS://img.example/a.png', forum, null],
    ['https://img.example/a b.png', forum, 'Photo URL must not contain spaces or invisible characters'],
    ['https://user:pass@img.example/a.png', forum, 'Photo URL must not contain a user name or password'],
    ['https://forum.example/api/me', forum, 'Photo URL must not point at the forum itself'],
    ['https://FORUM.example:443/realms/forum/protocol/openid-connect/logout', forum, 'Photo URL must not point at the forum itself'],
    ['http://127.0.0.1:3100/api/me', local, 'Use an https:// address'],
    ['https://127.0.0.1:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://localhost:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://[::1]:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://127.1.2.3:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://2130706433:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://api.localhost:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://0.0.0.0:3100/api/me', local, 'Photo URL must not point at the forum itself'],
    ['https://img.example/a\u200b.png', forum, 'Photo URL must not contain spaces or invisible characters'],
  ])('%s at %s → %s', (value, origin, problem) => {
    expect(photoUrlProblem(value, origin)).toBe(problem);
  });

  it('loopback host names', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'a.localhost', '127.0.0.1', '127.255.0.9', '[::1]', '[::ffff:7f00:1]', '0.0.0.0'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['localhost.example', '128.0.0.1', '[::2]', 'example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('PATCH /api/me keeps the canonical address and refuses the forum itself', () => {
    expect(updateMeRequest('https://forum.example').parse({ photoURL: 'HTTPS://Img.Example/a.png' })).toEqual({ photoURL: 'https://img.example/a.png' });
    expect(updateMeRequest('https://forum.example').parse({ photoURL: '' })).toEqual({ photoURL: '' });
    expect(updateMeRequest('https://forum.example').safeParse({ photoURL: 'https://forum.example/x.png' }).success).toBe(false);
    expect(updateMeRequest('https://forum.example').safeParse({ displayName: 'Admin\u200b' }).success).toBe(false);
  });
});

describe('request schemas use the policy', () => {
  it('a post: NFC title, invisible-only title refused, tags as names', () => {
    expect(CreatePostRequest.parse({ title: 'Cafe\u0301', description: 'a\r\nb', tags: ['Java\u00a0Script'] })).toEqual({
      title: 'Café',
      description: 'a\nb',
      tags: ['Java Script'],
    });
    const refused = CreatePostRequest.safeParse({ title: '\u200b\u200b', description: 'x\u0000', tags: ['ta\u200bg'] });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['description', 'tags.0', 'title']);
  });
});

describe('pages and bodiless calls', () => {
  it('a page is 1 to PAGE_MAX; twice sent or beyond the bound it is refused', () => {
    expect(pageNumber.parse('2')).toBe(2);
    expect(pageNumber.safeParse('2147483648').success).toBe(false);
    expect(pageNumber.safeParse(['1', '2']).success).toBe(false);
    expect(pageNumber.safeParse('0').success).toBe(false);
  });

  it('a number of a query string is decimal digits 0-9 (leading zeros too), nothing else', () => {
    expect(pageNumber.parse('016')).toBe(16);
    for (const value of ['0x10', '1e1', '+16', ' 16', '16 ', '16.0', '１６', 'Infinity', '']) {
      expect(fieldErrorsOf(pageNumber.safeParse(value).error!), JSON.stringify(value)).toEqual({ _: ['Page must be a whole number in digits 0-9'] });
    }
    expect(fieldErrorsOf(pageNumber.safeParse('-3').error!)).toEqual({ _: ['Page starts at 1'] });
  });

  it('a bodiless call takes nothing or {}; a key in it is named, anything else is no body', () => {
    expect(NoBody.safeParse(undefined).success).toBe(true);
    expect(NoBody.safeParse({}).success).toBe(true);
    expect(fieldErrorsOf(NoBody.safeParse({ role: 'admin' }).error!)).toEqual({ role: ['role is not a field of this call'] });
    expect(fieldErrorsOf(NoBody.safeParse([]).error!)).toEqual({ _: ['This call takes no body'] });
  });
});

describe("a command's body", () => {
  it('refuses every key that is not a field by its name, keys of Object.prototype included', () => {
    const body = JSON.parse('{"name":"x","colour":1,"__proto__":{},"constructor":2}') as unknown;
    expect(Object.keys(fieldErrorsOf(CreateTagRequest.safeParse(body).error!))).toEqual(['colour', '__proto__', 'constructor']);
  });

  it("drops what the spec's clients send beside a post's fields, and still refuses anything else", () => {
    const post = { title: 'T', description: 'D', tags: [] };
    expect(CreatePostRequest.parse({ ...post, upVote: 3, authorEmail: 'x@y.z', createdAt: 'then' })).toEqual(post);
    expect(fieldErrorsOf(CreatePostRequest.safeParse({ ...post, authorName: 'N', colour: 1 }).error!)).toEqual({
      colour: ['colour is not a field of this call'],
    });
  });
});
