import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Logger } from '@forum/platform';
import { CSP_NONCE_PLACEHOLDER } from '@forum/contracts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { precompressPage } from './precompressed-page.ts';

/** forum-web's server entry (`forum-web/src/entry-server.tsx`, built into dist-server/ by `npm run build:web`). */
interface ServerEntry {
  isPublicPage(url: string, publicUrl: string): boolean;
  renderPage(request: {
    url: string;
    publicUrl: string;
    template: string;
    fetch: typeof fetch;
  }): Promise<{ status: 200 | 404 | 410; html: string; styleHashes: readonly string[] } | undefined>;
}

export interface RenderedPage {
  readonly status: number;
  /** The document, CSP_NONCE_PLACEHOLDER where the answer's nonce goes. */
  readonly html: string;
  /** The CSP sources ('sha256-…') of the style attributes in the markup, which the page's CSP allows. */
  readonly styleHashes: readonly string[];
  /** A kept page: the document gzipped with the answer's nonce in it, from its parts compressed once. */
  readonly gzip?: (nonce: string) => Buffer;
}

export interface PublicPages {
  /** The public page at `url` (path and query), from memory or rendered; undefined for any other path, or when it cannot be rendered (then logged). */
  page(url: string, template: string): Promise<RenderedPage | undefined>;
}

/** A public page's read side version: any public read's ETag (the visitors' cache's, W/"<version>"); /api/tags is the smallest. */
const VERSION_READ = '/api/tags';
/** Kept pages in all (characters): a page is some 100 kB, so some 300 of them; the oldest leaves first. */
const KEPT_MAX = 32 * 1024 * 1024;

/**
 * forum-web's public pages as HTML (docs/seo.md): rendered by its server entry, whose reads are the
 * gateway's own API routes called in process (`inject`: the same reads, hooks and visitors' cache
 * as a browser's, through the proxy to a query-service in the replicated layout). A 200 page is kept
 * in memory under the read side's version (the public reads' ETag): it answers while a read with
 * `If-None-Match` of that version is 304, and is kept only if the version held while it was
 * rendered, as the API's visitors' cache does. 404 and 410 pages are rendered each time (strangers'
 * misses fill no memory). A kept page is also kept gzipped, in parts around its nonce (precompressPage).
 * Without the entry (not built) or a version (the visitors' cache turned
 * off), pages are rendered each time or not at all.
 */
export function publicPages(options: {
  serverEntry: string;
  publicUrl: string;
  server: { inject(request: InjectOptions): Promise<LightMyRequestResponse> };
  logger: Logger;
}): PublicPages {
  const { server, logger } = options;
  let entry: Promise<ServerEntry | undefined> | undefined;
  const loadEntry = () =>
    (entry ??= existsSync(options.serverEntry) ? (import(pathToFileURL(options.serverEntry).href) as Promise<ServerEntry>) : Promise.resolve(undefined));
  let kept = new Map<string, RenderedPage>();
  let keptVersion: string | undefined;
  let length = 0;

  const fetchInProcess: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const answer = await server.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { accept: 'application/json' } });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) if (typeof value === 'string') headers.set(name, value);
    return new Response(answer.statusCode === 304 ? null : answer.body, { status: answer.statusCode, headers });
  };

  /** The read side's version now (undefined: none known, nothing is kept); `known`: answered 304 when it still is. */
  const version = async (known?: string): Promise<string | undefined> => {
    const answer = await server.inject({ method: 'GET', url: VERSION_READ, headers: known ? { 'if-none-match': known } : {} });
    if (answer.statusCode === 304) return known;
    const etag = answer.headers.etag;
    return typeof etag === 'string' ? etag : undefined;
  };

  const keep = (url: string, page: RenderedPage, at: string) => {
    if (keptVersion !== at) {
      kept = new Map();
      length = 0;
      keptVersion = at;
    }
    while (kept.size > 0 && length + page.html.length > KEPT_MAX) {
      const [oldest, { html }] = kept.entries().next().value!;
      kept.delete(oldest);
      length -= html.length;
    }
    length += page.html.length;
    kept.set(url, { ...page, gzip: precompressPage(page.html, CSP_NONCE_PLACEHOLDER) });
  };

  return {
    async page(url, template) {
      try {
        const renderer = await loadEntry();
        // every other path is index.html: no version read for it
        if (!renderer?.isPublicPage(url, options.publicUrl)) return undefined;
        const hit = kept.get(url);
        if (hit && keptVersion !== undefined && (await version(keptVersion)) === keptVersion) return hit;
        const before = await version();
        const page = await renderer.renderPage({ url, publicUrl: options.publicUrl, template, fetch: fetchInProcess });
        if (!page) return undefined;
        if (page.status === 200 && before !== undefined && (await version(before)) === before) keep(url, page, before);
        return page;
      } catch (error) {
        // the visitor gets the app's plain page, which renders in the browser as before
        logger.error({ err: error, url }, 'a public page could not be rendered: the plain page is sent');
        return undefined;
      }
    },
  };
}
