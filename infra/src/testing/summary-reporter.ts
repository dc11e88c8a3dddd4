import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names. */
const SLOWEST = 12;

/**
 * Closes the run with the plain 'N passed, N failed, N skipped' line that CI reads, after the
 * slowest files and their time (what to look at first when `npm test` grows past its budget).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    const slowest = testModules
      .map((module) => ({ file: module.relativeModuleId, seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST);
    if (slowest.length > 0)
      process.stdout.write(`\nslowest files:\n${slowest.map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}`).join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
