import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressPage } from './precompressed-page.ts';

const P = '__NONCE__';
/** As the gateway makes them: 16 random bytes in base64, 24 characters. */
const nonce = () => randomBytes(16).toString('base64');
const style = (n: number) => `<style data-emotion="css ${n}" nonce="${P}">.css-${n}{margin:${n}px;color:#3949ab;display:flex}</style>`;

describe('precompressPage', () => {
  const pages: [string, string][] = [
    [
      'a page of styles each with the placeholder, over 32 kB',
      `<html><head>${Array.from({ length: 60 }, (_, n) => style(n)).join('')}<meta property="csp-nonce" content="${P}"></head><body>${'<p>Kestrels hover.</p>'.repeat(2000)}</body></html>`,
    ],
    ['a placeholder first, last and two side by side', `${P}<p>between</p>${P}${P}<p>end</p>${P}`],
    ['no placeholder', '<p>no nonce here</p>'],
    ['only the placeholder', P],
    ['empty', ''],
    ['text beyond ASCII', `<p>Grüße, 🦅 and ‮ ${P} والكلمة ${P}</p>`],
    ['random text of 300 kB', `${randomBytes(150_000).toString('hex')}${P}${randomBytes(1000).toString('base64')}${P}${randomBytes(40_000).toString('hex')}`],
    ['a page that holds the filler byte', `<p>\u0001${P}\u0001</p>`],
  ];
  for (const [name, page] of pages) {
    it(`gives gzip that inflates to the page with the answer's value: ${name}`, () => {
      const answer = precompressPage(page, P);
      // the first value's length is the one compressed for; the others are compressed anew
      for (const value of [nonce(), nonce(), 'A'.repeat(24), '', 'short', 'ü'.repeat(24), 'x'.repeat(70_000)]) {
        expect(gunzipSync(answer(value)).toString('utf8')).toBe(page.replaceAll(P, value));
      }
    });
  }

  it('a value the history never saw is never copied: answers with other values stay exact', () => {
    // a page whose text repeats what a value could be: a back-reference into the values would copy the wrong bytes
    const value = 'QUJDREVGR0hJSktMTU5PUA==';
    const page = `${P}<p>${value}</p>${P}<p>${value}${value}</p>${P}`;
    const answer = precompressPage(page, P);
    for (const other of [value, nonce(), nonce()]) expect(gunzipSync(answer(other)).toString('utf8')).toBe(page.replaceAll(P, other));
  });

  it('a page with its nonce in a few places is about as small as compressing each answer anew', () => {
    // as the apps' pages are: the nonce in the head's meta and style only
    const page = `<html><head><meta property="csp-nonce" nonce="${P}"><style nonce="${P}">${Array.from({ length: 300 }, (_, n) => `.css-${n}{margin:${n}px}`).join('')}</style></head><body>${Array.from({ length: 2000 }, (_, n) => `<p class="css-${n % 300}">Kestrels hover ${n}.</p>`).join('')}</body></html>`;
    const value = nonce();
    const once = precompressPage(page, P)(value).length;
    const anew = gzipSync(page.replaceAll(P, value)).length;
    expect(once).toBeLessThan(anew * 1.02 + 64);
  });
});
