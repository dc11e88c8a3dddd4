/**
 * npm run deps:check — licences, install scripts, lockfile and pins (no network; exits 1 on a failure).
 * npm run deps:outdated — the direct dependencies with a new major release (asks the registry; a report, exits 0).
 * See docs/security/dependencies.md.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDependencies, configuredRegistry, formatReport, passed } from './check.ts';
import { outdatedMajors } from './outdated.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

if (process.argv.includes('--outdated')) {
  try {
    const majors = await outdatedMajors(root);
    console.log(majors.length === 0 ? 'No dependency has a new major release.' : `${majors.length} dependencies have a new major release:`);
    for (const row of majors) console.log(`  ${row.name} ${row.current} -> ${row.latest}  (${row.dependents.join(', ') || 'root'})`);
  } catch (error) {
    console.log(`npm outdated could not ask the registry (offline?): ${(error as Error).message.split('\n')[0]}`);
  }
} else {
  const report = checkDependencies(root, await configuredRegistry(root));
  console.log(formatReport(report).join('\n'));
  process.exitCode = passed(report) ? 0 : 1;
}
