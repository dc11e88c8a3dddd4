import { webAppConfig } from '@forum/web-auth/vite';
import { defineConfig } from 'vite';

export default defineConfig(({ isSsrBuild, mode }) => ({
  ...webAppConfig({ base: '/' }),
  ...(isSsrBuild && {
    // the server entry (vite build --ssr, docs/seo.md) carries its libraries, as the browser's build
    // does: the image keeps no dev dependencies, and React and MUI run the build's mode (MUI's class
    // names then match the browser's, whatever NODE_ENV the gateway runs with)
    ssr: { noExternal: true },
    define: { 'process.env.NODE_ENV': JSON.stringify(mode === 'development' ? 'development' : 'production') },
  }),
}));
