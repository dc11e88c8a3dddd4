import react from '@vitejs/plugin-react';
import { defineConfig, type Connect, type Plugin, type UserConfig } from 'vite';
import { SILENT_CHECK_SSO_HTML, SILENT_CHECK_SSO_PAGE } from './src/silent-check-sso.ts';

/** The gateway serves the built apps, /api and the identity realm on one origin; Vite's dev and preview servers proxy to it. */
const gateway = 'http://localhost:3000';
const proxy = { '/api': gateway, '/realms': gateway };

/**
 * The Vite config of a forum web app (forum-web, admin-web): React, libraries
 * in their own chunks (they change less often than the app, so they stay cached
 * across releases), the gateway proxied, and the silent check-sso page.
 * `libraries`: the app's own library chunks, between MUI and the rest.
 */
export function webAppConfig(options: { base: string; libraries?: readonly { name: string; test: RegExp }[] }): UserConfig {
  const groups = [
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/ },
    ...(options.libraries ?? []),
  ];
  return defineConfig({
    base: options.base,
    plugins: [react(), silentCheckSso()],
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

/** Serves the silent check-sso page under the app's base (dev, preview) and emits it into the build. */
function silentCheckSso(): Plugin {
  let path = `/${SILENT_CHECK_SSO_PAGE}`;
  const serve: Connect.NextHandleFunction = (req, res, next) => {
    if (req.url?.split('?')[0] !== path) return next();
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(SILENT_CHECK_SSO_HTML);
  };
  return {
    name: 'forum-silent-check-sso',
    configResolved(config) {
      path = `${config.base}${SILENT_CHECK_SSO_PAGE}`;
    },
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SILENT_CHECK_SSO_PAGE, source: SILENT_CHECK_SSO_HTML });
    },
  };
}
