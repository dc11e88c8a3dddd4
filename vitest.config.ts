import { defineConfig } from 'vitest/config';

const NODE_WORKSPACES = '{contracts,platform,eventstore,eventstore-kurrentdb,identity,command-service,query-service,projections,feed,mailer,infra}';
const WEB_WORKSPACES = '{web-auth,web-ui,forum-web,admin-web}';

/**
 * Three levels (docs/testing.md): `unit` (pure code, and the command routes over the in-memory
 * event store), `web` (the apps' components in jsdom), `int` (real PostgreSQL, the whole forum,
 * and the browser journeys). `npm run test:unit` runs the first two.
 *
 * A file of `unit` or `int` shares its worker's modules with the files before it (isolate: false):
 * importing the code anew for every file was most of `unit`'s time and about a third of `int`'s. A
 * file therefore keeps no state in a module that another file could meet: each starts its own
 * forum, database and browser. The web components' files stay isolated: each installs its own DOM,
 * fetch stubs and timers.
 */
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    setupFiles: ['web-ui/src/testing/dom-waits.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // three files at a time on 2 cores: a file spends part of its time waiting on its PostgreSQL, browser
    // or processes, and with two the cores stood idle a fifth of the run (docs/testing.md)
    maxWorkers: 3,
    reporters: ['default', './infra/src/testing/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: [`${NODE_WORKSPACES}/src/**/*.{unit,route}.test.ts`], isolate: false } },
      { extends: true, test: { name: 'web', include: [`${WEB_WORKSPACES}/src/**/*.unit.test.{ts,tsx}`] } },
      {
        extends: true,
        test: {
          name: 'int',
          include: [`{${NODE_WORKSPACES.slice(1, -1)},${WEB_WORKSPACES.slice(1, -1)}}/src/**/*.int.test.ts`, 'e2e/**/*.test.ts'],
          // one real PostgreSQL for the level, in a temporary folder on a free port; the compiled
          // build (npm run build) that infra/src/deploy's tests start as the image does
          globalSetup: ['platform/src/testing/global-setup.ts', 'infra/src/testing/compiled-build.ts'],
          isolate: false,
          // what a page shows after a click may take seconds on a busy machine: expect.poll waits as a person would
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
