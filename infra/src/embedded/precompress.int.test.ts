import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from './precompress.ts';

let dist: string;
const at = (relative: string) => path.join(dist, relative);
const script = 'export const greeting = "hello, forum";\n'.repeat(200);

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'forum-precompress-'));
  await mkdir(at('assets'));
  await writeFile(at('assets/index-abc123.js'), script);
  await writeFile(at('assets/tiny-def456.js'), 'export {};\n');
  await writeFile(at('assets/photo-0a1b2c.png'), Buffer.alloc(4096, 7));
  await writeFile(at('index.html'), `<html>${'<p>page</p>'.repeat(200)}</html>`);
  await precompress(dist);
});
afterAll(() => rm(dist, { recursive: true, force: true }));

describe('the compressed copies a build writes beside its files', () => {
  it('writes a brotli and a gzip copy of each script, style or text file of 1 KiB or more, each the same bytes once undone', async () => {
    expect(brotliDecompressSync(await readFile(at('assets/index-abc123.js.br'))).toString()).toBe(script);
    expect(gunzipSync(await readFile(at('assets/index-abc123.js.gz'))).toString()).toBe(script);
    expect((await readFile(at('assets/index-abc123.js.br'))).length).toBeLessThan(script.length / 10);
  });

  it('leaves small files, images and the app’s index.html (which the gateway answers with a nonce placed) alone', () => {
    for (const file of ['assets/tiny-def456.js', 'assets/photo-0a1b2c.png', 'index.html']) {
      expect([existsSync(at(`${file}.br`)), existsSync(at(`${file}.gz`))], file).toEqual([false, false]);
    }
  });
});
