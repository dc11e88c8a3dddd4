import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import type { HttpServer } from '@forum/platform';

/**
 * What the gateway compresses as it answers: the apps' pages (HTML, a fresh nonce in each) and the API's
 * JSON. The apps' scripts and styles are compressed once at build time (precompress.ts) and sent as they
 * are; the change stream (text/event-stream) is never held back in a compressor's buffer; the sitemap's
 * files and the feeds are left as they are (a sitemap file is megabytes: compressing it on each request
 * would cost more CPU than reading it, docs/seo.md).
 */
const COMPRESSED_TYPES = /^(text\/html|application\/json)(;|$)/;

const OPTIONS: FastifyCompressOptions = {
  customTypes: COMPRESSED_TYPES,
  // below 1 KiB the headers and the work cost more than the bytes saved (the plugin's default, said here)
  threshold: 1024,
  // gzip (level 6) only: at these answers' sizes brotli (quality 4) saved 3% more bytes for 15% more CPU (docs/gateway.md)
  encodings: ['gzip'],
  // answers only: request bodies are read as they came (the API's input rules)
  globalDecompression: false,
};

/** Compresses the answers of the routes registered after it on `server` (and in its child contexts). */
export async function compressAnswers(server: HttpServer): Promise<void> {
  await server.register(fastifyCompress, OPTIONS);
}
