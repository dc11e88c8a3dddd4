import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressPage } from './precompressed-page.ts';

const P = '__NONCE__';
const nonce = () => randomBytes(16).toString('base64');

describe('precompressPage', () => {
  const pages: [string, string][] = [
    [
      'placeholders inside',
      `<html><head><style nonce="${P}">a{}</style><meta property="csp-nonce" content="${P}"></head><body>${'<p>Kestrels hover.</p>'.repeat(500)}</body></html>`,
    ],
    ['a placeholder first, last and two side by side', `${P}<p>between</p>${P}${P}<p>end</p>${P}`],
    ['no placeholder', '<p>no nonce here</p>'],
    ['only the placeholder', P],
    ['empty', ''],
    ['text beyond ASCII', `<p>Grüße, 🦅 and ‮ ${P} والكلمة</p>`],
    ['random text of 300 kB', `${randomBytes(150_000).toString('hex')}${P}${randomBytes(1000).toString('base64')}`],
  ];
  for (const [name, page] of pages) {
    it(`gives gzip that any reader inflates to the page with the answer's value: ${name}`, () => {
      const answer = precompressPage(page, P);
      for (const value of [nonce(), nonce(), '', 'ü'.repeat(40_000)]) {
        const gzip = answer(value);
        expect(gunzipSync(gzip).toString('utf8')).toBe(page.replaceAll(P, value));
      }
    });
  }

  it('is about as small as compressing each answer anew', () => {
    const page = pages[0]![1];
    const value = nonce();
    const once = precompressPage(page, P)(value).length;
    const anew = gzipSync(page.replaceAll(P, value)).length;
    expect(once).toBeLessThan(anew * 1.1 + 64);
  });
});
