import { webAppConfig } from '@forum/web-auth/vite';
import { defineConfig, mergeConfig } from 'vite';

/**
 * Beside the apps' common config: the entry (main.tsx and all it imports statically: the shell,
 * the store, the parts of MUI the bar and footer use) is one chunk, a Rolldown group. Left to
 * Rolldown, the home page's first load was 71 files, the entry's code cut by which routes share
 * each module though all of it loads with the entry anyway; gzip packs one file better than the
 * same code in dozens (25 files and 17.7 KB less, and every route a little less). The routes stay
 * chunks of their own and import from it, so nothing in the entry may wait at its top level for a
 * route's chunk: that chunk waits for the entry's (main.tsx hydrates in a promise's callback).
 */
export default defineConfig(({ isSsrBuild, mode }) =>
  mergeConfig(webAppConfig({ base: '/' }), {
    build: {
      // Vite's polyfill of <link rel=modulepreload> (for Firefox before 115 and Safari before 17, which
      // fetch those chunks all the same once imported) was all the entry chunk held but an import of
      // main.tsx's chunk: a file of its own to fetch first. Without it the page names its chunks as scripts.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        output: { codeSplitting: { groups: [{ name: 'index', test: /[\\/]forum-web[\\/]src[\\/]main\.tsx$/, priority: 0 }] } },
      },
    },
    ...(isSsrBuild && {
      // the server entry (vite build --ssr, docs/seo.md) carries its libraries, as the browser's build
      // does: the image keeps no dev dependencies, and React and MUI run the build's mode (MUI's class
      // names then match the browser's, whatever NODE_ENV the gateway runs with)
      ssr: { noExternal: true },
      define: { 'process.env.NODE_ENV': JSON.stringify(mode === 'development' ? 'development' : 'production') },
    }),
  }),
);
