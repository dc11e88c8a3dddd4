import { webAppConfig } from '@forum/web-auth/vite';
import { mergeConfig } from 'vite';

/**
 * The gateway serves this console under /admin. Beside the apps' common config:
 * - The console (mountConsole.tsx and all it imports statically: react-admin's shell, MUI's parts
 *   of it, react-query …) is one chunk (a Rolldown group takes a module and all it imports). Left
 *   to Rolldown it was 17 chunks of 0.5 to 48 KB, cut by which pages share each module, and gzip
 *   compresses one file better than the same code in 17 (about 10 KB less). The pages stay chunks
 *   of their own and import from it. The first load (main.tsx and all it imports) is a group too,
 *   taken first: else the console's chunk would take the modules both use (web-auth, contracts)
 *   and the first load would import it, so a visitor would load the console.
 * - react-admin's texts (node-polyglot) use the `object.entries` polyfill, which brings
 *   es-abstract's helpers (get-intrinsic, call-bind, define-properties …: about 6 KB gzip) into the
 *   console; every browser the console supports has Object.entries, which nolyfill's package hands
 *   out under the polyfill's interface.
 * - react-admin imports lodash's CommonJS files one function at a time (`lodash/get.js` …):
 *   lodash-es has the same functions of the same lodash as ES modules, which Rolldown joins
 *   without a CommonJS wrapper each (0.7 KB gzip less in the console).
 */
export default mergeConfig(webAppConfig({ base: '/admin/' }), {
  resolve: {
    alias: [
      { find: 'object.entries', replacement: '@nolyfill/object.entries' },
      { find: /^lodash\/([\w]+)(\.js)?$/, replacement: 'lodash-es/$1.js' },
    ],
  },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', test: /[\\/]admin-web[\\/]src[\\/]main\.tsx$/, priority: 2 },
            { name: 'console', test: /[\\/]admin-web[\\/]src[\\/]mountConsole\.tsx$/, priority: 0 },
          ],
        },
      },
    },
  },
});
