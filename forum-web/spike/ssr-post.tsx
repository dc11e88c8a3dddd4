/**
 * SPIKE (issue #46 item 1, docs/seo.md "Public pages as HTML: the design"): can forum-web's post
 * page render to a string in Node, with MUI + emotion's critical CSS under a CSP nonce, from a
 * store preloaded by explicit route loaders, and what does it cost per page?
 * Run: cd forum-web && npx tsx spike/ssr-post.tsx
 * Not product code: no routes, no tests, no build; the next session turns it into src/server/.
 */
import './react-global';
import '@forum/contracts/parse-without-eval';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import type { Auth, AuthState } from '@forum/web-auth';
import { performance } from 'node:perf_hooks';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { Writable } from 'node:stream';
import { StaticRouter, useRoutes } from 'react-router-dom';
import { makeLiveStream } from '../src/app/live';
import { AppProviders } from '../src/app/providers';
import { Shell } from '../src/app/shell';
import { PostPage } from '../src/app/routes/post';
import { makeStore } from '../src/app/store';
import { getPostApi } from '../src/lib/post';
import { getCommentsApi } from '../src/features/comments/api/get-comments';

const ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const HOSTILE = '</script><script>alert(1)</script> & <b>bold</b>';
const post = {
  _id: ID, title: `A post about hydration ${HOSTILE}`, summary: 'In short…', tags: ['react', 'ssr'],
  authorName: 'Bob Chen', authorId: 'u-bob', authorPhoto: '', createdAt: '2026-11-23T18:00:00.000Z',
  upVote: 12, downVote: 1, commentCount: 5, revisionCount: 1,
  description: `# Heading\n\nSome **markdown** with a [link](https://example.org) and ${HOSTILE}.\n\n- one\n- two\n\n`.repeat(6),
};
const comments = {
  comments: Array.from({ length: 5 }, (_, i) => ({
    _id: `c-${i}`, postId: ID, text: `Comment ${i}: I agree, *mostly*. ${HOSTILE}`, authorName: `Member ${i}`, authorId: `u-${i}`,
    authorPhoto: '', createdAt: `2026-11-24T1${i}:00:00.000Z`, revisionCount: 1,
  })),
  nextCursor: null, totalCount: 5,
};
// the read side, in process: the route loaders' reads answer without a network hop
globalThis.fetch = (async (input: Request | string | URL) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const body = url.pathname.endsWith('/comments') ? comments : url.pathname === `/api/posts/${ID}` ? post : undefined;
  return new Response(JSON.stringify(body ?? { error: { code: 'NOT_FOUND', message: 'No such post' } }), {
    status: body ? 200 : 404, headers: { 'content-type': 'application/json' },
  });
}) as typeof fetch;

// PostDetails reads window.location.origin while it renders (ShareMenu's address): the one render-time
// browser global the post page touches. The real fix: the origin from a context (PUBLIC_URL on the server).
(globalThis as { window?: unknown }).window = { location: new URL('http://localhost:3000/') };

const visitor: AuthState = { status: 'anonymous', user: null, error: null };
const never = () => new Promise<never>(() => {});
const auth: Auth = {
  getState: () => visitor, onChange: () => () => {}, init: () => Promise.resolve(visitor), takeReturn: () => null,
  login: never, register: never, logout: never, token: () => Promise.resolve(undefined),
  registration: () => Promise.resolve(null), hasRole: () => false,
};

function Routes() {
  return useRoutes([{ path: '/', element: <Shell />, children: [{ path: 'post/:id', element: <PostPage /> }] }]);
}

/** The route's loader: what the page's hooks would ask for (hooks' effects do not run on the server). */
async function preloadedStore(id: string) {
  const store = makeStore({});
  await Promise.all([store.dispatch(getPostApi.endpoints.getPost.initiate(id)), store.dispatch(getCommentsApi.endpoints.getComments.initiate(id))]);
  return store;
}

/**
 * The whole page at once (onAllReady: every lazy chunk and Suspense boundary resolved): renderToString
 * gives up at the first Suspense (the bar's Hint is lazy) and leaves a client-rendered hole.
 */
function renderToHtml(element: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({ write(chunk, _enc, done) { html += String(chunk); done(); }, final(done) { resolve(html); done(); } });
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink), onShellError: reject, onError: (error) => console.error('render error', error) });
  });
}

/** Emotion's extractCritical without @emotion/server: the styles of the class names the HTML uses, and the globals. */
function criticalCss(cache: ReturnType<typeof createCache>, html: string): { css: string; ids: string[] } {
  const used = new Set([...html.matchAll(/css-([a-zA-Z0-9-_]+)/g)].map((m) => m[1]));
  let css = '';
  const ids: string[] = [];
  for (const [id, style] of Object.entries(cache.inserted)) {
    if (typeof style !== 'string') continue;
    if (used.has(id) || cache.registered[`${cache.key}-${id}`] === undefined) {
      css += style;
      ids.push(id);
    }
  }
  return { css, ids };
}

const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

async function renderPage(path: string, nonce: string) {
  const t0 = performance.now();
  const store = await preloadedStore(ID);
  const t1 = performance.now();
  const cache = createCache({ key: 'css', nonce });
  cache.compat = true; // record styles in cache.inserted instead of inline <style> next to each element
  const live = makeLiveStream(store, auth, { openAfter: never() });
  const html = await renderToHtml(
    <CacheProvider value={cache}>
      <AppProviders store={store} auth={auth} live={live}>
        <StaticRouter location={path}>
          <Routes />
        </StaticRouter>
      </AppProviders>
    </CacheProvider>,
  );
  const t2 = performance.now();
  const { css, ids } = criticalCss(cache, html);
  const state = jsonForScript({ api: store.getState().api });
  const doc = `<style data-emotion="css ${ids.join(' ')}" nonce="${nonce}">${css}</style><div id="root">${html}</div><script nonce="${nonce}" id="__STATE__" type="application/json">${state}</script>`;
  const t3 = performance.now();
  return { doc, html, css, state, loadMs: t1 - t0, renderMs: t2 - t1, cssMs: t3 - t2 };
}

const first = await renderPage(`/post/${ID}`, 'N0NCE');
const rounds = Number(process.env.SSR_ROUNDS ?? 200);
const times: number[] = [];
const renders: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  const r = await renderPage(`/post/${ID}`, `n${i}`);
  times.push(performance.now() - t);
  renders.push(r.renderMs);
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)].toFixed(2);
console.log(
  JSON.stringify(
    {
      firstRenderMs: Math.round(first.loadMs + first.renderMs + first.cssMs),
      rounds,
      wholePageMs: { p50: pct(times, 0.5), p95: pct(times, 0.95) },
      renderToStringMs: { p50: pct(renders, 0.5), p95: pct(renders, 0.95) },
      bytes: { html: first.html.length, criticalCss: first.css.length, state: first.state.length, page: first.doc.length },
      hasTitle: first.html.includes('A post about hydration'),
      hasComments: first.html.includes('Comment 4'),
      rawScriptTagInHtml: first.doc.includes('</script><script>alert'),
      loadavg: (await import('node:os')).loadavg().map((x) => x.toFixed(1)),
    },
    null,
    2,
  ),
);
if (process.env.SSR_DUMP) (await import('node:fs')).writeFileSync(process.env.SSR_DUMP, first.doc);
