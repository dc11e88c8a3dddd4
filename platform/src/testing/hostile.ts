import fc from 'fast-check';

/**
 * Arbitraries of what a careless client or an attacker sends: strings built of the characters
 * that break text handling, values of the wrong type, numbers at the edges, keys that reach for a
 * prototype, and bodies that are not JSON at all.
 */

/** Pieces hostile strings are made of: controls, lone surrogates, invisible and bidi characters, markup, quoting. */
const PIECES = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u00ad',
  '\u034f',
  '\ufffd',
  '\uffff',
  '\u{10ffff}',
  'e\u0301',
  '\u1100\u1161',
  '👩‍💻',
  '🏳️‍🌈',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u3000',
  'a',
  'Zoë',
  'ﷺ',
  '<script>alert(1)</script>',
  '"',
  "'",
  '\\',
  '%00',
  '%',
  '../',
  '${x}',
  "'; DROP TABLE eventstore.events; --",
  '{"__proto__":{"admin":true}}',
] as const;

/** Lengths around the limits the forum states, and far beyond them. */
const LONG_LENGTHS = [30, 31, 100, 101, 200, 201, 255, 256, 500, 501, 2048, 2049, 5000, 5001, 20_000, 20_001, 200_000] as const;

/** The characters that most often break text handling: each alone is enough. */
const POISON = ['\u0000', '\u0001', '\u007f', '\u0085', '\ud800', '\udfff', '\u200b', '\u202e', '\u2066', '\ufeff'] as const;

/**
 * Any string of at most `maxLength` code points, lone surrogates included (what fast-check's
 * `unit: 'binary'` strings are). Made of integers: fast-check builds a table of every code point for
 * its binary strings, seconds of work in every test file that imports this kit.
 */
const anyText = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength }).map((points) => String.fromCodePoint(...points));

/** Ordinary text with one poison character in it, a string of hostile pieces, a long run of one character, or anything. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...POISON), fc.string({ maxLength: 12 })).map((parts) => parts.join('')) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom('x', 'é', '\u200b', '😀', ' ', '\u0000')).map(([n, c]) => c.repeat(n)) },
  { weight: 2, arbitrary: anyText(40) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', 'undefined', 'NaN', '0', '-1', 'true', '[]', '{}') },
);

/** Numbers at the edges: integer overflow, negative, fractional, huge, tiny. */
export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, 1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value of the wrong kind for a field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  edgeNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 2 }),
);

/** Keys that reach for an object's prototype, beside the fields a call expects. */
export const prototypeKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf');

/** One field's value gone wrong: hostile text, the wrong type, or missing. */
const brokenValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: wrongType },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/**
 * A body for a call whose fields are `fields` (name → a valid value's arbitrary). Mostly one
 * thing wrong at a time — one field broken, or an extra or prototype key — so that each case
 * reaches as deep into the call as it can; sometimes every field at once.
 */
export function hostileObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  const valid = fc.record(fields);
  const extra = fc.tuple(fc.oneof(prototypeKeys, hostileString), wrongType);
  const oneBroken =
    names.length === 0 ? valid : fc.tuple(valid, fc.constantFrom(...names), brokenValue).map(([body, name, value]) => ({ ...body, [name]: value }));
  const allBroken = fc.record(Object.fromEntries(names.map((name) => [name, fc.oneof(fields[name]!, brokenValue)])));
  return fc
    .tuple(fc.oneof({ weight: 6, arbitrary: oneBroken }, { weight: 1, arbitrary: valid }, { weight: 2, arbitrary: allBroken }), fc.option(extra, { freq: 4 }))
    .map(([own, more]) => {
      const body: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(own)) if (value !== undefined) body[name] = value;
      // defineProperty: '__proto__' as an own key, as JSON.parse makes it, not as a prototype change
      if (more) Object.defineProperty(body, more[0], { value: more[1], enumerable: true, writable: true, configurable: true });
      return body;
    });
}

/**
 * A query string for a read whose parameters are `params` (name → a valid, unencoded value's
 * arbitrary): mostly valid but one parameter, which is hostile, repeated, an edge number or raw
 * escapes that decode badly; sometimes an unknown parameter.
 */
export function hostileQuery(params: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const names = Object.keys(params);
  const encode = (pairs: [string, string][]) => pairs.map(([name, value]) => `${name}=${value}`).join('&');
  const rawValue = fc.oneof(
    { weight: 4, arbitrary: hostileString.map(urlEncoded) },
    { weight: 1, arbitrary: fc.constantFrom('%00', 'a%00b', '%ff', '%', '%zz', '%ed%a0%80', '%e2%80%ae', '%e2%80%8b', '+', '%2b') },
    { weight: 1, arbitrary: edgeNumber.map((n) => urlEncoded(String(n))) },
  );
  const valid = fc
    .subarray(names)
    .chain((chosen) => fc.tuple(...chosen.map((name) => params[name]!.map((value) => [name, urlEncoded(value)] as [string, string]))));
  const broken =
    names.length === 0
      ? valid
      : fc
          .tuple(valid, fc.constantFrom(...names), rawValue, fc.boolean())
          .map(([pairs, name, value, repeat]) => [...pairs.filter(([n]) => repeat || n !== name), [name, value] as [string, string]]);
  const unknown = fc.tuple(valid, hostileString.map(urlEncoded), rawValue).map(([pairs, name, value]) => [...pairs, [name, value] as [string, string]]);
  return fc.oneof({ weight: 6, arbitrary: broken }, { weight: 2, arbitrary: valid }, { weight: 1, arbitrary: unknown }).map(encode);
}

/** Bytes that are not the JSON a call takes: broken, truncated, nested deep, invalid UTF-8, or another encoding. */
export const malformedJson: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '{',
      '{"a":',
      '{"title":"x",}',
      "{'a':1}",
      '[1,2',
      'nul',
      '"\\ud800"',
      '{"a":1}{"b":2}',
      '\ufeff{}',
      '{"a":1e999}',
      '{"a":"\\u0000"}',
      '{"__proto__":{"x":1}}',
    )
    .map((text) => Buffer.from(text)),
  fc.integer({ min: 1, max: 5000 }).map((depth) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
  fc.constantFrom(
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from([0xc0, 0xaf]),
  ),
  fc.constant(Buffer.from('{"text":"hi"}', 'utf16le')),
  anyText(60).map((text) => Buffer.from(text)),
);

/** Content types a client may send with a body, wrong ones and odd spellings of the right one. */
export const oddContentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  'application/json; charset=UTF-16',
  'application/json; charset=latin1',
  'application/json; charset=nonsense',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'a/b;;;=',
  undefined,
);

/** `text` percent-encoded as a URL carries it (a lone surrogate has no UTF-8 form: it travels as U+FFFD, as browsers send it). */
export const urlEncoded = (text: string) => encodeURIComponent(text.toWellFormed());

/** A path segment gone wrong: another id, hostile text (percent-encoded as a client would) or raw escapes. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.uuid() },
  { weight: 4, arbitrary: hostileString.map(urlEncoded) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%00',
      '%ff',
      '%',
      '%zz',
      '%2e%2e',
      '..%2f..%2fadmin',
      'a%2fb',
      '%u0000',
      '%ed%a0%80',
      '0',
      '-1',
      '2147483648',
      'x'.repeat(5000),
    ),
  },
);
