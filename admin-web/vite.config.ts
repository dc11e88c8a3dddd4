import { webAppConfig } from '@forum/web-auth/vite';
import { mergeConfig } from 'vite';

/** The console's entry: the console's chunk is it and all it imports statically. */
const CONSOLE = /[\\/]admin-web[\\/]src[\\/]mountConsole\.tsx$/;

/**
 * What most of the console's pages use, the dashboard (an admin's first page) among them, goes in
 * the console's chunk too: else Rolldown cuts it into chunks of 0.2 to 7 KB by which pages share
 * each module, and the dashboard loaded ten of them (an admin's first screen 3.9 KB gzip more). The
 * console is 12 KB more for every signed-in member; each page then adds less.
 */
const SHARED_PARTS = [
  // MUI's cards, chips, skeletons and the parts of a filled text field (FilledTextField)
  /[\\/]@mui[\\/]material[\\/](Card|CardContent|Chip|Skeleton|InputAdornment|FormControl|InputLabel|FormLabel|FilledInput|InputBase|FormHelperText)[\\/]/,
  // reading a list, and the data provider's hook
  /[\\/]ra-core[\\/]dist[\\/]dataProvider[\\/](useGetList|useDataProvider)\.js$/,
  // the fields and photo web-ui shares with forum-web, the text rules they count by, the pages' title
  /[\\/]web-ui[\\/]src[\\/](CountedTextField|CountedFilledField|FilledTextField|PersonAvatar)\.tsx$/,
  /[\\/]contracts[\\/]src[\\/]text-rules\.ts$/,
  /[\\/]admin-web[\\/]src[\\/]layout[\\/]PageTitle\.tsx$/,
];

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
            { name: 'console', test: (id: string) => CONSOLE.test(id) || SHARED_PARTS.some((part) => part.test(id)), priority: 0 },
          ],
        },
      },
    },
  },
});
