import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CSP_NONCE_PLACEHOLDER, SILENT_CHECK_SSO_PAGE } from '@forum/contracts';
import { negotiate } from '@fastify/accept-negotiator';
import type { SendOptions } from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicPages } from './public-pages.ts';
import type { SecurityHeaders } from './security-headers.ts';

export interface SinglePageAppOptions {
  /** The app's build (its `dist/`). */
  readonly dir: string;
  /** The app's workspace, named in the answer while it is not built. */
  readonly name: string;
  readonly headers: SecurityHeaders;
  /** forum-web's public pages, rendered as HTML with their content (public-pages.ts); every other path is index.html. */
  readonly pages?: PublicPages;
}

/** Vite's /assets: file names carry a hash of their content, so a name is never reused for other bytes. */
const ASSETS = '/assets';
const FOR_A_YEAR: SendOptions = { maxAge: 365 * 24 * 60 * 60 * 1000, immutable: true };
const FOR_AN_HOUR: SendOptions = { maxAge: 60 * 60 * 1000, immutable: false };

/** A build as the gateway serves it: its files by URL path, and its index.html. */
interface Build {
  readonly files: ReadonlySet<string>;
  readonly html: string;
}

/**
 * A built single-page app, registered with the prefix it is served under (none, `/admin`): its files
 * through @fastify/static (which the server registers with `serve: false` and `preCompressed`, so a
 * browser that accepts br or gzip gets the copy the build wrote): /assets for a year, immutable,
 * the other files for an hour; index.html for every other GET, with a fresh CSP nonce where the
 * build left its placeholder, never cached (a public page of forum-web's as HTML with its content, see
 * public-pages.ts, with its status: 404, 410); 503 while the app is not built. The prefix without its
 * slash is moved permanently to it: the app's base is `/admin/` (its assets, the realm's redirects back).
 */
export function singlePageApp(options: SinglePageAppOptions): FastifyPluginAsync {
  const { dir, name, headers } = options;
  // read once it is there: a build while the server runs is not picked up (npm start builds first)
  let build: Build | undefined;

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    build ??= await readBuild(dir);
    if (!build) return reply.code(503).type('text/plain; charset=utf-8').send(`${name} is not built: run "npm run build:web" (npm start does it for you).`);
    const file = `/${(request.params as { '*'?: string })['*'] ?? ''}`;
    if (build.files.has(file)) {
      if (path.posix.basename(file) === SILENT_CHECK_SSO_PAGE) headers.checkSsoPage(request.raw, reply.raw);
      return reply.sendFile(file, dir, file.startsWith(`${ASSETS}/`) ? FOR_A_YEAR : FOR_AN_HOUR);
    }
    // a missing asset is not a page: the browser asked for a script or a style
    if (file === ASSETS || file.startsWith(`${ASSETS}/`)) return reply.callNotFound();
    const page = await options.pages?.page(request.url, build.html);
    const nonce = headers.appDocument(request.raw, reply.raw, page?.styleHashes);
    reply
      .code(page?.status ?? 200)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8');
    // a kept page: its gzip with this answer's nonce, from its parts compressed once (the compression hook lets it pass)
    if (page?.gzip && negotiate((request.headers['accept-encoding'] ?? '').toLowerCase(), ['gzip']) === 'gzip') {
      return reply.header('Content-Encoding', 'gzip').header('Vary', 'Accept-Encoding').send(page.gzip(nonce));
    }
    return reply.send((page?.html ?? build.html).replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  };

  return (app) => {
    app.get('/', async (request, reply) => {
      const [pathname, query] = splitUrl(request.url);
      if (!pathname.endsWith('/')) return reply.redirect(`${pathname}/${query}`, 301);
      return serve(request, reply);
    });
    app.get('/*', serve);
    return Promise.resolve();
  };
}

const splitUrl = (url: string): [pathname: string, query: string] => {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
};

/**
 * The build in `dir`, or undefined while it has no index.html. Its files are those a browser may
 * ask for: index.html is the page (answered with its nonce), dot files are the build's own
 * (its stamp), and the compressed copies are chosen by @fastify/static, not asked for.
 */
async function readBuild(dir: string): Promise<Build | undefined> {
  let html: string;
  try {
    html = await readFile(path.join(dir, 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
  const files = new Set<string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`;
    if (entry.isFile() && file !== '/index.html' && !file.includes('/.') && !/\.(br|gz)$/.test(file)) files.add(file);
  }
  return { files, html };
}
