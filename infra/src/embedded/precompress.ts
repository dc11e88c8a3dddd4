import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** The encodings written beside a file, by the extension @fastify/static's preCompressed looks for. */
const ENCODINGS = [
  {
    extension: '.br',
    compress: (data: Buffer) =>
      promisify(brotliCompress)(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      }),
  },
  { extension: '.gz', compress: (data: Buffer) => promisify(gzip)(data, { level: constants.Z_BEST_COMPRESSION }) },
] as const;

/** Text the browser downloads; images and fonts are compressed in their own formats already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.map', '.xml']);
/** Below this a compressed answer saves less than its headers and the browser's work cost. */
const SMALLEST = 1024;

/**
 * Writes `file.br` and `file.gz` beside each compressible file of a built app (`dir`) that is
 * large enough, at the highest levels (brotli 11 takes ~0.1 s for forum-web's main script, too
 * slow for an answer, once for a build): the gateway sends them to browsers that accept them.
 * An encoding that would not be smaller is not written. The app's index.html is not a file the
 * gateway sends as it is (it places a nonce in it), so it is left alone.
 */
export async function precompress(dir: string): Promise<void> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.has(path.extname(file)) && file !== path.join(dir, 'index.html'));
  // all at once: zlib compresses on libuv's thread pool, so the build's cores share the work
  await Promise.all(files.map(compressBeside));
}

async function compressBeside(file: string): Promise<void> {
  const data = await readFile(file);
  if (data.length < SMALLEST) return;
  await Promise.all(
    ENCODINGS.map(async ({ extension, compress }) => {
      const compressed = await compress(data);
      if (compressed.length < data.length) await writeFile(file + extension, compressed);
    }),
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
