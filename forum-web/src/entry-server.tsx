/**
 * The public pages rendered in Node (docs/seo.md, "Public pages as HTML"): the gateway calls
 * renderPage for `/`, `/post/:id`, `/tags/:tag` and `/u/:id`, and sends the document it gets with
 * the answer's CSP nonce written where CSP_NONCE_PLACEHOLDER is. Built by `vite build --ssr` into
 * forum-web's dist-server/ (`npm run build:web`); the browser hydrates the markup (main.tsx).
 */
import '@forum/contracts/parse-without-eval';
import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { CSP_NONCE_PLACEHOLDER } from '@forum/contracts';
import { NOT_KNOWN_YET, type Auth } from '@forum/web-auth';
import { OwnOriginProvider } from '@forum/web-ui';
import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { makeLiveStream } from './app/live';
import { AppProviders } from './app/providers';
import { App } from './app/app';
import { makeStore, type AppStore } from './app/store';
import { jsonForScript } from './lib/json-script';
import { publicPage, type LoadedStatus } from './server/loaders';
import { STATE_SCRIPT_ID, type ServerState } from './server/state';

export interface RenderRequest {
  /** The page's path and query string, as the browser asked for it. */
  readonly url: string;
  /** Where browsers reach the forum (PUBLIC_URL): the canonical addresses and the page's own origin. */
  readonly publicUrl: string;
  /** The built index.html, holding CSP_NONCE_PLACEHOLDER where the nonce goes. */
  readonly template: string;
  /** The read side's API as a visitor calls it (`/api/...` URLs): the gateway's own routes, in process. */
  readonly fetch: typeof fetch;
}

export interface RenderedPage {
  /** 200, or the page's 404 (nothing there) or 410 (deleted): the forum's own page is rendered for each. */
  readonly status: LoadedStatus;
  /** The whole document, with CSP_NONCE_PLACEHOLDER for the nonce. */
  readonly html: string;
  /**
   * The CSP sources of the style attributes the markup holds (MUI writes a few: sizes, CSS variables),
   * `'sha256-…'` each: the page's CSP allows these exact values ('unsafe-hashes') and no other.
   */
  readonly styleHashes: readonly string[];
}

/**
 * Everyone gets the visitor's page: the server knows no member (the app signs in in the browser). The
 * browser's sign-in check has not answered when it hydrates ('loading'), so the server renders that
 * state, and the markup matches; the member's view comes after hydration.
 */
const never = () => new Promise<never>(() => {});
const serverAuth: Auth = {
  getState: () => NOT_KNOWN_YET,
  onChange: () => () => {},
  init: () => Promise.resolve(NOT_KNOWN_YET),
  takeReturn: () => null,
  login: never,
  register: never,
  logout: never,
  token: () => Promise.resolve(undefined),
  registration: () => Promise.resolve(null),
  hasRole: () => false,
};

/** The public page at `request.url` as a whole document, or undefined when the path is no public page (the caller sends index.html). */
/** Whether `url` (path and query) is a public page this entry renders: the gateway asks before it reads anything for it. */
export function isPublicPage(url: string, publicUrl: string): boolean {
  return publicPage(new URL(url, publicUrl)) !== undefined;
}

export async function renderPage(request: RenderRequest): Promise<RenderedPage | undefined> {
  const url = new URL(request.url, request.publicUrl);
  const load = publicPage(url);
  if (!load) return undefined;
  const store = makeStore({ fetch: request.fetch });
  const status = await load(store);
  const cache = createCache({ key: 'css', nonce: CSP_NONCE_PLACEHOLDER });
  // styles recorded in the cache (written once, in the head, below), not as <style> beside each element
  cache.compat = true;
  const live = makeLiveStream(store, serverAuth, { openAfter: never() });
  const origin = new URL(request.publicUrl).origin;
  const markup = await renderToHtml(
    <StrictMode>
      <CacheProvider value={cache}>
        <OwnOriginProvider value={origin}>
          <AppProviders store={store} auth={serverAuth} live={live}>
            <App serverLocation={`${url.pathname}${url.search}`} />
          </AppProviders>
        </OwnOriginProvider>
      </CacheProvider>
    </StrictMode>,
  );
  const { head, body } = splitHoisted(markup);
  const css = criticalCss(cache, body);
  const state = jsonForScript(handedOver(store.getState().api));
  return { status, html: documentOf(request.template, { head, css, body, state }), styleHashes: styleAttributeHashes(body) };
}

/** Of the api's state, what the browser's store starts from: the reads' answers and what they provide (for their invalidation). */
const handedOver = ({ queries, provided }: ReturnType<AppStore['getState']>['api']): ServerState => ({ queries, provided });

/**
 * The app's markup once every lazy page and Suspense boundary has resolved (onAllReady):
 * renderToString would stop at the first Suspense and leave a hole the browser fills.
 */
function renderToHtml(element: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    let failed: unknown;
    const sink = new Writable({
      write(chunk, _encoding, done) {
        html += String(chunk);
        done();
      },
      final(done) {
        if (failed) reject(failed instanceof Error ? failed : new Error('the page failed to render', { cause: failed }));
        else resolve(html);
        done();
      },
    });
    const { pipe } = renderToPipeableStream(element, {
      onAllReady: () => pipe(sink),
      // every boundary inline, however large: no <template> and reveal script for the browser to run (the CSP runs no inline script)
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onShellError: reject,
      // an error inside a boundary would leave the browser to render that part: the caller sends the plain shell instead
      onError: (error) => {
        failed ??= error;
      },
    });
  });
}

/**
 * React writes the tags a page hoists (title, meta, link) ahead of the app's markup when it renders
 * no whole document: they go to the document's head. React escapes `<` in text and attributes, so
 * a tag ends at its first `>`, and a title at its first `<`.
 */
const HOISTED = /^(?:<title>[^<]*<\/title>|<(?:meta|link)\b[^>]*\/?>)/;
function splitHoisted(markup: string): { head: string; body: string } {
  let head = '';
  let body = markup;
  for (let match = HOISTED.exec(body); match; match = HOISTED.exec(body)) {
    head += match[0];
    body = body.slice(match[0].length);
  }
  return { head, body };
}

/** The attributes' values as the browser reads them: React writes these five as entities in attribute values. */
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&lt;': '<', '&gt;': '>' };
function styleAttributeHashes(body: string): string[] {
  const values = new Set([...body.matchAll(/ style="([^"]*)"/g)].map((m) => m[1]!.replace(/&(?:amp|quot|#x27|lt|gt);/g, (e) => ENTITIES[e]!)));
  return [...values].map((value) => `'sha256-${createHash('sha256').update(value).digest('base64')}'`);
}

/**
 * The styles the markup uses, as emotion's own server package writes them (`extractCritical`): one
 * `<style data-emotion="css <ids>">` that the browser's emotion cache takes over without inserting
 * them again, and the global styles.
 */
function criticalCss(cache: EmotionCache, body: string): { ids: string[]; text: string } {
  const used = new Set([...body.matchAll(/css-([a-zA-Z0-9_-]+)/g)].map((m) => m[1]));
  const ids: string[] = [];
  let text = '';
  for (const [id, style] of Object.entries(cache.inserted)) {
    if (typeof style !== 'string') continue;
    if (used.has(id) || cache.registered[`${cache.key}-${id}`] === undefined) {
      ids.push(id);
      text += style;
    }
  }
  return { ids, text };
}

/**
 * index.html with the page in it: the page's head tags in place of the template's title and
 * description, the styles, the app's markup in #root, and the store's state as a JSON data script
 * (not run; `<` escaped) for the browser's store.
 */
function documentOf(template: string, page: { head: string; css: { ids: string[]; text: string }; body: string; state: string }): string {
  let html = template;
  if (page.head.includes('<title>')) html = html.replace(/<title>[^<]*<\/title>/, '');
  if (page.head.includes('<meta name="description"')) html = html.replace(/<meta name="description"[^>]*>/, '');
  const style = `<style data-emotion="css ${page.css.ids.join(' ')}" nonce="${CSP_NONCE_PLACEHOLDER}">${page.css.text}</style>`;
  html = html.replace('</head>', () => `${page.head}${style}</head>`);
  const state = `<script type="application/json" id="${STATE_SCRIPT_ID}">${page.state}</script>`;
  return html.replace('<div id="root"></div>', () => `<div id="root">${page.body}</div>${state}`);
}
