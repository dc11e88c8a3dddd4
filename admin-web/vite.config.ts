import { webAppConfig } from '@forum/web-auth/vite';
import { mergeConfig } from 'vite';

/**
 * The gateway serves this console under /admin. react-admin's texts (node-polyglot) use the
 * `object.entries` polyfill, which brings es-abstract's helpers (get-intrinsic, call-bind,
 * define-properties …: about 6 KB gzip) into the console's first load; every browser the console
 * supports has Object.entries, which nolyfill's package hands out under the same interface.
 */
export default mergeConfig(webAppConfig({ base: '/admin/' }), {
  resolve: { alias: { 'object.entries': '@nolyfill/object.entries' } },
});
