/**
 * Vitest setup for every test file: in the component tests (jsdom), testing-library's findBy* and
 * waitFor wait up to 10 s instead of 1 s. They return as soon as their condition holds, so a
 * passing test is no slower; the longer bound only stops a test from failing when a loaded
 * machine takes more than a second for a lazy route's first render or a stubbed fetch.
 * Node-environment tests skip it and load nothing.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 10_000 });
}

export {};
