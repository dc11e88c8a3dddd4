/**
 * Vitest setup for every test file: in the component tests (jsdom), testing-library's findBy* and
 * waitFor wait up to 20 s instead of 1 s. They return as soon as their condition holds, so a
 * passing test is no slower; the longer bound only stops a test from failing when a loaded
 * machine takes long for a lazy route's first render or a stubbed fetch (a post page's first
 * render once took more than 10 s beside three other engineers' test runs). It stays below the
 * test's own 30 s, so an element that never comes is still reported by name.
 * Node-environment tests skip it and load nothing.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 20_000 });
}

export {};
