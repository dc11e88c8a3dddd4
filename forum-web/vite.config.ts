import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The gateway serves the built app, /api and the identity realm on one origin; dev proxies to it. */
const gateway = 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/, priority: 3 },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion|@babel|stylis|react-transition-group|react-is|clsx|prop-types|hoist-non-react-statics)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': gateway,
      '/realms': gateway,
    },
  },
  preview: {
    proxy: {
      '/api': gateway,
      '/realms': gateway,
    },
  },
});
