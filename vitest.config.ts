import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contracts,platform,eventstore,eventstore-kurrentdb,identity,command-service,query-service,projections,feed,infra,web-auth,web-ui,forum-web,admin-web}/src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['platform/src/testing/global-setup.ts'],
    setupFiles: ['web-ui/src/testing/dom-waits.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './infra/src/testing/summary-reporter.ts'],
  },
});
