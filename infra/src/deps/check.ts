import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { checkInstallScripts } from './install-scripts.ts';
import { checkLicences } from './licences.ts';
import { checkLockfile } from './lockfile.ts';
import { readTree } from './tree.ts';

/** The registry npm is configured with (the `resolved` a registry package may carry). */
export async function configuredRegistry(root: string): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['config', 'get', 'registry'], { cwd: root });
  return stdout.trim();
}

/** The three checks that need no network, over the project at `root`: licences, install scripts, lockfile. */
export function checkDependencies(root: string, registry: string) {
  const tree = readTree(root);
  return { packages: tree.packages.length, licences: checkLicences(tree), installScripts: checkInstallScripts(tree), lockfile: checkLockfile(tree, registry) };
}
export type DependencyReport = ReturnType<typeof checkDependencies>;

export const passed = (report: DependencyReport) =>
  report.licences.failures.length === 0 && report.installScripts.failures.length === 0 && report.lockfile.length === 0;

/** The report as lines for a terminal: a summary of each check, and every failure with its reason. */
export function formatReport(report: DependencyReport): string[] {
  const { licences, installScripts, lockfile } = report;
  const lines = [`Dependencies: ${report.packages} locked packages`, '', 'Licences:'];
  for (const [licence, count] of [...licences.byLicence].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(count).padStart(4)}  ${licence}`);
  for (const read of licences.findings.filter((finding) => finding.declared !== finding.licence))
    lines.push(`  read by hand: ${read.name}@${read.version} "${read.declared}" -> ${read.reason}`);
  for (const failure of licences.failures) lines.push(`  FAIL ${failure.name}@${failure.version}: ${failure.reason}`);
  lines.push('', 'Install scripts:');
  for (const found of installScripts.findings) {
    const state = found.approvedBy
      ? `approved (allowScripts "${found.approvedBy}")`
      : found.refusedBy
        ? `refused, never run (allowScripts "${found.refusedBy}": false)`
        : found.installed
          ? 'NOT APPROVED'
          : 'not approved; not installed on this machine';
    lines.push(`  ${found.installed ? 'installed    ' : 'not installed'}  ${found.name}@${found.version}: ${state}`);
  }
  for (const failure of installScripts.failures)
    lines.push(
      `  FAIL ${failure.name}@${failure.version} runs an install script that package.json's allowScripts does not review (review it, then npm install-scripts approve or deny ${failure.name})`,
    );
  lines.push(
    '',
    `Lockfile and pins: ${lockfile.length === 0 ? 'every dependency pinned exactly, every package from the registry with a sha512 hash' : `${lockfile.length} problems`}`,
  );
  for (const problem of lockfile) lines.push(`  FAIL ${problem}`);
  lines.push('', passed(report) ? 'All dependency checks passed.' : 'Dependency checks FAILED.');
  return lines;
}
