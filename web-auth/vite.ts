import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Connect, type Plugin, type UserConfig } from 'vite';
import { CSP_NONCE_PLACEHOLDER, SILENT_CHECK_SSO_PAGE, SILENT_CHECK_SSO_SCRIPT } from '@forum/contracts';
import { SILENT_CHECK_SSO_HTML, SILENT_CHECK_SSO_JS } from './src/silent-check-sso.ts';

/** The gateway serves the built apps, /api and the identity realm on one origin; Vite's dev and preview servers proxy to it. */
const gateway = 'http://localhost:3000';
const proxy = { '/api': gateway, '/realms': gateway };

/**
 * The Vite config of a forum web app (forum-web, admin-web): React and its router
 * in a chunk of their own (they change less often than the app, so they stay cached
 * across releases), the gateway proxied, the silent check-sso page, and the
 * place for the gateway's CSP nonce (cspNonce).
 * Other libraries are not grouped: a group takes the modules it matches and all
 * they import into one chunk that loads with the first page (a react-admin group
 * would bring all of MUI and react-admin into admin-web's first load), while left
 * to Rolldown each page's chunks carry only the library code that page uses.
 */
export function webAppConfig(options: { base: string }): UserConfig {
  const groups = [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/ }];
  return defineConfig({
    base: options.base,
    plugins: [react(), reactRouterProductionBuild(), muiThemeWithoutCssVariables(), silentCheckSso(), cspNonce()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          // the first group that matches a module takes it
          codeSplitting: { groups: groups.map((group, i) => ({ ...group, priority: groups.length - i })) },
        },
      },
    },
    server: { proxy },
    preview: { proxy },
  });
}

/**
 * React Router's production build in a production build: its package's exports name only its
 * development build (dist/development, with its warnings for developers and their checks), for
 * every condition, and leave dist/production to be chosen by hand (react-router issue 14102).
 */
function reactRouterProductionBuild(): Plugin {
  const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist', 'production');
  return {
    name: 'forum-react-router-production',
    config: (_config, { command, mode }) =>
      command === 'build' && mode !== 'development'
        ? {
            resolve: {
              alias: [
                { find: /^react-router$/, replacement: path.join(dist, 'index.mjs') },
                { find: /^react-router\/dom$/, replacement: path.join(dist, 'dom-export.mjs') },
              ],
            },
          }
        : undefined,
  };
}

/**
 * MUI's themes without its CSS theme variables, in a build. MUI's `createTheme` and `ThemeProvider`
 * import both kinds of theme and choose at run time: the one with CSS variables only for a theme
 * given `cssVariables` or `colorSchemes`, which neither app's theme is (nor react-admin's). A bundler
 * cannot drop the branch never taken, so every page carried the CSS-variables theme and its provider
 * (about 7 KB gzip on each app's first load; MUI's default theme, which each of its components imports, is made by the same
 * `createTheme`). Here those two imports resolve to a module that throws if a theme ever asks for
 * them, and the build fails if MUI no longer makes them: a move in MUI's files shows here, not as a
 * heavier page.
 */
function muiThemeWithoutCssVariables(): Plugin {
  const cuts = [
    { importer: /[\\/]@mui[\\/]material[\\/]styles[\\/]createTheme\.mjs$/, source: './createThemeWithVars.mjs' },
    { importer: /[\\/]@mui[\\/]material[\\/]styles[\\/]ThemeProvider\.mjs$/, source: './ThemeProviderWithVars.mjs' },
  ];
  const off = '\0forum-mui-css-variables-off';
  const made = new Set<string>();
  return {
    name: 'forum-mui-theme-without-css-variables',
    apply: 'build',
    // before Vite's own resolver, which would resolve these imports first
    enforce: 'pre',
    resolveId(source, importer) {
      const cut = cuts.find((c) => c.source === source && importer !== undefined && c.importer.test(importer));
      if (!cut) return null;
      made.add(cut.source);
      return off;
    },
    load(id) {
      if (id !== off) return null;
      return [
        'const off = () => {',
        `  throw new Error("This build leaves out MUI's CSS theme variables (web-auth/vite.ts): a theme here may not ask for cssVariables or colorSchemes.");`,
        '};',
        'export default off;',
        'export const CssVarsProvider = off;',
      ].join('\n');
    },
    buildEnd(error) {
      const missed = cuts.filter((c) => !made.has(c.source));
      if (!error && missed.length) {
        this.error(
          `MUI no longer imports ${missed.map((c) => c.source).join(' and ')} where web-auth/vite.ts leaves them out: read MUI's styles/createTheme and styles/ThemeProvider again`,
        );
      }
    },
  };
}

/**
 * The place for the gateway's CSP nonce: `<meta property="csp-nonce" nonce="CSP_NONCE_PLACEHOLDER">`
 * in the page's head, where the apps read it for the styles they insert (pageNonce), and on the
 * page's own inline `<style>` elements. The gateway writes each answer's nonce in its place. The
 * scripts and their preloads carry none (Vite's `html.cspNonce` puts one on every tag): the CSP
 * allows scripts by origin (`script-src 'self'`), and a nonce on each of a page's ~50 preloads was
 * bytes, and places the gateway writes into, for nothing.
 */
function cspNonce(): Plugin {
  return {
    name: 'forum-csp-nonce',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => ({
        html: html.replace(/<style(?=[\s>])/g, `<style nonce="${CSP_NONCE_PLACEHOLDER}"`),
        tags: [{ tag: 'meta', attrs: { property: 'csp-nonce', nonce: CSP_NONCE_PLACEHOLDER }, injectTo: 'head' }],
      }),
    },
  };
}

/** Serves the silent check-sso page and its script under the app's base (dev, preview) and emits them into the build. */
function silentCheckSso(): Plugin {
  const files = [
    { name: SILENT_CHECK_SSO_PAGE, type: 'text/html; charset=utf-8', source: SILENT_CHECK_SSO_HTML },
    { name: SILENT_CHECK_SSO_SCRIPT, type: 'text/javascript; charset=utf-8', source: SILENT_CHECK_SSO_JS },
  ];
  let base = '/';
  const serve: Connect.NextHandleFunction = (req, res, next) => {
    const file = files.find(({ name }) => req.url?.split('?')[0] === `${base}${name}`);
    if (!file) return next();
    res.setHeader('Content-Type', file.type);
    res.end(file.source);
  };
  return {
    name: 'forum-silent-check-sso',
    configResolved(config) {
      base = config.base;
    },
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    generateBundle() {
      for (const { name, source } of files) this.emitFile({ type: 'asset', fileName: name, source });
    },
  };
}
